"""Answer shapes, one per kind of question, built from the abstracts' own sentences.

- list ("which papers are about T"): every retrieved paper whose abstract holds T's key
  concept (up to ``MAX_LISTED``), one cited line each, saying what the paper does about T;
- compare: a cited table (problem, method, results) and sentences that each state a difference;
- per-paper attribute ("which of them needs ...", "what datasets do they use"): one line per
  paper in focus with the sentence that answers the asked attribute, or "the abstract does not
  say" — never an unrelated sentence;
- not in the index: says so, naming the concept, then the closest papers;
- a lookup's fallback: the sentence that answers what was asked, else what the paper does.

The pipeline (``answer``) picks the shape; every line here is a sentence of a cited abstract,
so nothing is invented. Lines are cited as [n] in order of first use.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

from assistant.citations import YES_NO, is_pointer
from assistant.evidence import (
    ALTERNATIVE_BREAK,
    BARE_NUMBERS,
    GENERIC,
    METHOD_CUE,
    PAPER_KIND_AFTER,
    REPORTS_RESULTS,
    SET_ASIDE,
    SHOWS_FINDING,
    TOPIC_CHANGE,
    Rarity,
    Topic,
    answering,
    asked_terms,
    closeness_to_question,
    coverage,
    dangles,
    holds,
    points_back,
    related,
    same_root,
    sets_scene,
    solves_the_one_before,
    stating,
    topic,
    trim,
    weighing_closeness,
    what_it_does,
    with_antecedent,
    with_next_step,
    without_back_lead,
    words,
)
from assistant.evidence import BACKGROUND_CUE as _BACKGROUND
from assistant.facets import (
    ASKS_CODE,
    ASKS_MODEL_KIND,
    FACETS,
    NAMING_ONE,
    Facet,
    background_ok,
    facet_words,
    named_fields,
    states_first,
)
from assistant.facets import asked as asked_facets
from assistant.intents import BIGGER_GAIN, SHARED_AUTHORS
from assistant.records import Answer, Citation, citation
from assistant.retrieval import Hit
from assistant.text import (
    GENERIC_NAMES,
    Sentence,
    figures,
    named_terms,
    numbers,
    spells_out,
    split_sentences,
    tokenize,
)

MAX_LISTED = 6  # a list answer names at most this many papers: the Sources panel holds the rest
_INJECTION = re.compile(
    r"\b(ignore|disregard|forget)\b.{0,40}\b(instructions?|prompt|rules|above)\b|"
    r"\byou are now\b|\bsystem prompt\b|\bnew instructions?\b",
    re.IGNORECASE,
)
# Words of a question that ask for something without naming it ("which of them needs X": X is asked).
_WEAK = set(
    words(
        "need needs require requires rely relies depend depends use uses used have has get gets do does work works involve involves another run runs ran "
        "come comes one ones kind sort main key idea contribution contributions solve solves report reports "
        "result results thing things "
        # degree words frame the question ("how central is VI to each?"): no abstract says "central"
        "central crucial important actually really "
        # everyday fillers: "do they *still* train one network *per* target variable?", "the models
        # they *tried*", "do both papers *end* with ...": no abstract answers in them, and a line said
        # the abstract "does not mention “still”" (c323.2, c319.4)
        "still just ever every per end tried try trying care cares caring look looks looked looking"
    )
)
_RESULT_WORDS = set(
    words("result results perform performance findings outcome outcomes experiment experiments evaluation empirical")
)
_PROBLEM_WORDS = set(words("problem problems solve solves address addresses tackle tackles challenge motivation fix"))
_ASPECT_CUES = {
    "problem": re.compile(
        r"\b(challeng|problem|however|limit|difficult|suffer|remain|costly|expensive|bottleneck|lack)", re.IGNORECASE
    ),
    "method": re.compile(
        r"\b(we (?:propose|introduce|present|develop|design)|our (?:method|approach|framework)|"
        r"this (?:paper|work) (?:proposes|introduces|presents|explores))",
        re.IGNORECASE,
    ),
    "results": re.compile(
        r"\b(results?|experiments?|outperform|achiev|improv|speed|demonstrat|show that|empirical)", re.IGNORECASE
    ),
}
ASPECTS = ("problem", "method", "results")
_WE_CLAUSE = re.compile(
    r"^(?:(?:in this (?:paper|work)|here|to (?:this end|address|mitigate|resolve|tackle|overcome|bridge)"
    r"(?: (?:this|these|that|the|such))?(?: [\w-]+){0,3}|accordingly|instead|specifically|therefore|"
    r"hence|thus|finally|first|then),?\s+)?we\s+(?:(also|first|then|further)\s+|(?:thus|therefore|hence|now)\s+)?([a-z]+)\b(.*)$",
    re.IGNORECASE | re.DOTALL,
)
_WE = re.compile(
    r"\bwe (?:\w+ly |therefore |thus |also |then |further |first |here )?(?:propose|introduce|present|develop|"
    r"design|show|prove|study|analy[sz]e|explore|provide|make an attempt|put forward|build|implement)\b|"
    r"\bthis (?:paper|work) (?:proposes|introduces|presents|explores)\b",
    re.IGNORECASE,
)
_MODALS = {"can", "could", "may", "might", "will", "would", "should", "must"}
_STATES_FINDING = re.compile(
    r"\bwe (?:\w+ )?(?:show|prove|find|argue|establish|demonstrate)\b|\bour (?:results|analysis) "
    r"(?:show|suggest|reveal)",
    re.IGNORECASE,
)
# How a method works: "we implement X as a prompting system that ...", "by iteratively reducing ...".
_MECHANISM = re.compile(
    r"\b(?:we (?:\w+ )?(?:implement|reformulate|replace|couple|use|employ|combine)|employs?|"
    r"by (?:\w+ly )?\w+ing\b|consists? of|(?:is|are) (?:induced|trained|built|produced) (?:by|with|from)|"
    r"works? by|relies on)",
    re.IGNORECASE,
)


def without_injections(hit: Hit) -> Hit:
    """The hit with sentences that read like instructions to a model removed from its text and abstract."""
    if not _INJECTION.search(hit.abstract):
        return hit

    def clean(text: str) -> str:
        return " ".join(s.text for s in split_sentences(text) if not _INJECTION.search(s.text))

    return replace(hit, text=clean(hit.text), paper=replace(hit.paper, abstract=clean(hit.abstract)))


# Words too broad to name a topic that still name what is asked ("what applications", "which models").
_ASKABLE = set(words("application applications data model models network networks task tasks improve improves"))
_HEAD_ONLY = set(words("model models network networks"))  # said by every abstract; a phrase does not open with it


# "which of them matter for how we design ml benchmarks?": what the asker builds is asked, not the building
# (c452.2 required "design" of the multi-task benchmark paper, which studies benchmarks without the word)
_ASKERS_MAKING = re.compile(
    r"\bhow (?:we|i|you|one|to|people) (?:should )?(?:design|build|construct|set up|make)\b", re.IGNORECASE
)


_THING_ASKED = re.compile(r"\b(?:the|that|this) ((?:[a-z][\w-]{3,} ){1,2})thing\b")


def focal_terms(question: str) -> list[str]:
    """The words that name what a question asks for ("which of them needs a draft model" -> draft, model);
    "the theory one" points at a paper and asks nothing."""
    unnamed = _ASKERS_MAKING.sub(" ", NAMING_ONE.sub(" ", question))
    if BARE_NUMBERS.match(unnamed):
        return []  # "numbers?": any figure answers
    found = [w for w in asked_terms(unnamed) if (w not in GENERIC or w in _ASKABLE) and w not in _WEAK]
    if not found and _THING_ASKED.search(question):
        # "what's the brain thing there" of Hare & Tortoise asks for the brain-inspired part, not for the
        # paper's first sentence (c578.4): with nothing else asked, the thing is what is asked
        return focal_terms(_THING_ASKED.sub(r"\1", question))
    return found


def _skipped(abstract: str, pointers_ok: bool) -> list[str]:
    return [
        s.text
        for s in split_sentences(abstract)
        if (not pointers_ok and is_pointer(s.text)) or _INJECTION.search(s.text)
    ]


# Questions that ask what a paper is about, as a whole.
_SUMMARY_ASK = re.compile(
    r"^\W*(?:what(?:'s| is| are)\b(?! the (?:difference|lower|upper|main limitation))(?! new\b)|summari[sz]e|"
    r"tell me (?:more )?about|explain|describe|give me (?:a|the) (?:summary|gist)|"
    r"what (?:does|did) (?:the )?[^?]{0,80}? (?:do|propose|contribute|argue|show|find|introduce)\W*$|"
    # (not "and the long doc reader, what datasets?": a question after the paper, c482.4; nor "and the
    # theory paper says llm planners get linear regret?", a claim to check, c478.4)
    r"(?:and |so )?(?:what|how) about (?:the )?[^?]{0,80}\?\s*$|"
    r"and the (?![^?,]*\b(?:says?|claims?|gets?|is|are|does|do|did|has|have|uses?|needs?|shows?)\b)[^?,]{0,80}"
    r"(?:,\s*(?:tl;?dr|the gist|gist|summary|in short|briefly))?\?\s*$|"
    r"(?:now|next),? the [^?]{0,80}\bpaper\W*$)|"
    r"\bgist of\b|"
    # "any paper on subsurface imaging or geophysics?": the paper found, said as what it does.
    r"^\W*(?:is there |are there )?(?:any|a) (?:paper|work|papers) (?:on|about)\b[^?]{0,60}\?\s*$",
    re.IGNORECASE,
)
_NUMBER_WORD = re.compile(
    r"\b(?:two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|thirty|hundred|"
    r"thousand|million|billion|twice|double|half)\b",
    re.IGNORECASE,
)
_NAMED_THING = re.compile(r"\b[A-Z][a-z]+(?:[-–]+[A-Z][a-z]+)+\b|\b[A-Z][\w-]*[A-Z][\w-]*\b|\b[a-z]+[A-Z]\w*")


def _title_run(question: str, title: str) -> set[str]:
    """Title words the question uses several in a row: it names the paper by them."""
    asked, titled = words(question), set(words(title))
    out: set[str] = set()
    run: list[str] = []
    # Three title words in a row name the paper; two do when the question says "paper".
    least = 2 if re.search(r"\bpaper\b", question, re.IGNORECASE) else 3
    for w in asked + [""]:
        if w in titled:
            run.append(w)
            continue
        if len(run) >= least:
            out.update(run)
        run = []
    return out


# "did it actually beat retrieval?" measures against retrieval: the result says it ("ReadAgent
# outperforms the baselines on all three tasks"), not the sentence naming the baselines (c505.3)
_BASELINE = re.compile(
    r"\b(?:than|compared (?:to|with)|relative to|over|beat|beats|outperform|outperforms)\s+((?:[\w-]+\s*){1,3})",
    re.IGNORECASE,
)


def _baseline_words(question: str) -> set[str]:
    """The words naming what a question measures against ("cheaper than standard attention")."""
    return {w for m in _BASELINE.finditer(question) for w in words(m.group(1))}


def answer_sentences(
    hit: Hit,
    question: str,
    need_number: bool = False,
    pointers_ok: bool = False,
    terms: Sequence[str] | None = None,
    exclude: Sequence[str] = (),
) -> list[Sentence]:
    """The abstract sentences of ``hit`` that answer ``question``; empty when the abstract does not say.

    With nothing specific asked ("tell me more", "what is its main contribution") the answer is
    what the paper does; "what problem does it solve" gets the problem sentence.
    """
    skip = _skipped(hit.abstract, pointers_ok) + list(exclude)
    if pointers_ok and ASKS_CODE.search(question):
        # "do those two release code?": the sentence giving the code's address answers, not one that
        # says "code completion tasks".
        pointing = [s for s in split_sentences(hit.abstract) if is_pointer(s.text) and s.text not in skip]
        if pointing:
            return pointing[:1]
    terms = focal_terms(question) if terms is None else terms
    if need_number:
        # "whats the speedup numbers for each": "numbers" asks for figures, which the kept sentences
        # have; looked up as a word, it found none (c451.3 gave ParaTAA's sentence without its 4-14x)
        terms = [t for t in terms if t not in _NUMBER_ASKS]
    # Words that name the paper itself ("the crystal structure prediction paper": two or more title
    # words in a row, or its method's name) ask for nothing; a single title word ("memory") may be asked.
    named = _title_run(question, hit.title) | set(words(short_name(hit)))
    # Title words hold all over the abstract; asked beside others they choose nothing. Asked alone
    # ("does the first one use transformers?" of a "Transformer World Models" paper) they are the question.
    # "what does diversity mean?" of the Diversity/Stability paper: with the title word gone only the
    # facet's own word ("mean") would be left, which looks up nothing, so the title word stays.
    facets = [] if need_number else asked_facets(question)
    kept = [t for t in terms if t not in named]
    terms = (kept if any(t not in facet_words(facets) for t in kept) else []) or [
        t for t in terms if t not in _title_run(question, hit.title) | _name_words(hit)
    ]
    telling = [t for t in terms if t not in _ASKABLE]
    sentences = split_sentences(hit.abstract)
    if need_number:
        skip += [s.text for s in sentences if not numbers(s.text) and not _NUMBER_WORD.search(s.text)]
        if all(s.text in skip for s in sentences):
            return []
    if facets:
        # "what applications does each show": the sentence stating applications, weighed with any
        # other asked word ("robot"); the facet's own words ("applications") are not looked up.
        own = facet_words(facets) | _baseline_words(question)
        # Asked words the abstract never uses ("which of the two *states* ...") cannot be demanded,
        # nor the baseline a question measures against ("cheaper than *standard* attention").
        in_abstract = set(words(hit.abstract))
        rest = [t for t in telling if t not in own and holds(in_abstract, t)]
        stated = stating(
            hit.abstract,
            facets,
            rest,
            skip,
            names_count=any(f.name in ("evaluation", "models", "hardware") for f in facets),
            echoed=[t for t in asked_terms(question) if t in own],
        )
        how = [f.name for f in facets] == ["mechanism"]
        worded = answering(hit.abstract, rest, skip) if how and stated is not None and len(rest) >= 2 else None
        if worded is not None and len(worded.matched) >= max(2, 2 * len(stated.matched)):  # type: ignore[union-attr]
            # "how do they parameterize the convex potential?": "... to parameterize the potential u as
            # an input convex neural network" holds every asked word, and no cue of a mechanism; the
            # sentence with the cue holds one ("the convex conjugate").
            stated = None
        if stated is not None and (stated.matched or not rest or all(f.name in _DECISIVE for f in facets)):
            return _with_own_choice(stated.sentences, sentences, facets, question)
        if stated is not None and not background_ok(facets):
            # "whats the takeaway, should i still majority vote?": the asked words are only in the
            # scene-setting ("It's common practice to ... via a majority vote"); the finding answers
            # whether to keep doing it ("we show it's best to spend the budget on a single label", c484.2)
            worded = answering(hit.abstract, rest, skip)
            if worded is not None and all(_BACKGROUND.search(s.text) for s in worded.sentences):
                return _with_own_choice(stated.sentences, sentences, facets, question)
        if stated is not None and set(rest) <= set(words(" ".join(named_terms(question)))):
            # "what's the catch with C-SOBA?": the limitation sentence says "it" of the method the
            # sentence before names; the method's name is whose limitation, not a word to find.
            return with_antecedent(stated.sentences, sentences)
        if stated is not None and any(f.own_only for f in facets):
            # "whats the catch with the simple C-SOBA version": the words describe the method the
            # sentence before the limitation names ("We first propose C-SOBA, a simple yet effective
            # approach"), whose limitation it is (c725.4 gave that sentence alone)
            chained = with_antecedent(stated.sentences, sentences)
            if len(chained) >= 2 and _held_count(" ".join(c.text for c in chained), rest) == len(rest):
                return chained
        if all(f.own_only for f in facets):
            return []  # the abstract states no limitation of its own
        if stated is None and _hardware_alone(facets):
            # "what gpus did they run stable diffusion on" of an abstract naming no hardware: the sentence
            # on Stable Diffusion holds the other words and says nothing of GPUs (c481.4)
            return []

    if terms and not set(terms) <= _PROBLEM_WORDS:
        # "needs a draft model": a sentence that only says "model" does not answer it, so the telling
        # words are looked for first and the broad ones ("model", "data") only when there are none.
        broad = [t for t in terms if t in _ASKABLE]
        if any(f.name == "mechanism" for f in facets):
            # "How do EquiCSP and PiT each build the structure of their domain into the model?": "Our
            # experiments indicate that EquiCSP ... generating accurate structures" reports, it says no how.
            skip = skip + [s.text for s in sentences if _REPORTS_EXPERIMENTS.match(s.text)]
        found = answering(hit.abstract, telling or terms, skip, weak=broad if telling else ())
        if found is not None:
            if any(f.name == "mechanism" for f in facets) and len(found.sentences) == 1:
                # "how does each handle planning?": the step after the sentence naming the planner.
                return with_antecedent(with_next_step(found.sentences[0], sentences), sentences)
            # "what's p_eff?": "... a theoretical explanation for this, based on the model's effective
            # parameter count, p_eff, given by the sum of ..." defines it; what "this" is does not help.
            defines = _WHAT_IS.match(question) is not None and all(_DEFINES.search(s.text) for s in found.sentences)
            chosen = found.sentences if defines else with_antecedent(found.sentences, sentences)
            return with_other_gains(hit, chosen, question) if need_number else chosen
        named_broad = answering(hit.abstract, broad, skip) if telling and broad else None
        if named_broad is not None and _NAMED_THING.search(named_broad.text):
            return named_broad.sentences  # "what real-world model": the sentence naming a model answers
        # "How many codes are active?": a thing asked by name that no sentence with a figure holds is
        # not answered by another figure ("410M parameters"); a kind of figure ("speedups") may be
        # stated in other words ("decrease the inference steps ... by 4~14 times"), a size by any.
        if not need_number or any(t not in _SIZE_WORDS and related(t) == {t} for t in telling):
            return []
    asked = set(asked_terms(question))
    if asked & _PROBLEM_WORDS and not need_number:
        return [aspect_sentence(hit, "problem")]
    if asked & _RESULT_WORDS and not need_number:
        return [aspect_sentence(hit, "results")]
    sentence = what_it_does(hit.abstract, hit.title, skip)
    return [sentence] if sentence is not None else []


_REPORTS_EXPERIMENTS = re.compile(
    r"^\W*(?:our |the |extensive |numerical )?(?:experiments?|experimental results?|empirical results?|results)\b"
    r"(?: \w+){0,4}? (?:show|shows|indicate|indicates|demonstrate|demonstrates|suggest|suggests|reveal|reveals)\b",
    re.IGNORECASE,
)


# "what speedups do they claim?", "numbers vs MeZO?", "what improvements ..., and by how much?": every
# gain the abstract states in figures is asked, not only the one a sentence says best ("4~14 times
# fewer steps" besides "7 steps instead of 100").
_ASKS_GAINS = re.compile(
    r"\b(?:speed-?ups?|improvements?|gains?|numbers|figures|by how much|how much (?:faster|better|less|"
    r"fewer|cheaper|smaller|more efficient)|how (?:fast|big an? (?:gain|improvement)))\b",
    re.IGNORECASE,
)
# A sentence stating a gain in figures: a factor, a percentage, or a figure with a word of gain.
_GAIN_FIGURE = re.compile(
    r"\d(?:[\d.,~-]*\d)?\s*(?:%|×|x\b|times\b|-?fold\b)|\\times|"
    r"\b(?:faster|fewer|less|lower|higher|reduc\w*|increas\w*|improv\w*|outperform\w*|surpass\w*|speed-?ups?|"
    r"sav\w+|instead of|in only)\b",
    re.IGNORECASE,
)
MAX_GAIN_SENTENCES = 3  # sentences of figures in one paper's line: a fourth is the abstract retold


def says_name(text: str, name: str, ignore_case: bool = False) -> bool:
    """Does ``text`` say the method name ``name`` as a name of its own? "EBBA" is not said by
    "EBBA+" nor "MeZO" by "MeZO-SVRG": a name ends where no word character, "-" or "+" follows."""
    return re.search(rf"(?<![\w-]){re.escape(name)}(?![\w+-])", text, re.IGNORECASE if ignore_case else 0) is not None


def with_other_gains(hit: Hit, chosen: list[Sentence], question: str) -> list[Sentence]:
    """``chosen`` with the abstract's other sentences that state a gain in figures, in abstract
    order, up to ``MAX_GAIN_SENTENCES``, when ``question`` asks for gains; ``chosen`` otherwise.
    Asked against something ("numbers vs MeZO?"), a further sentence must name it too; a
    scene-setting sentence's figures are other work's."""
    if not chosen or not _ASKS_GAINS.search(question):
        return chosen
    # The paper's own name asks for nothing; a baseline inside it does ("MeZO" of MeZO-SVRG).
    own = short_name(hit).casefold()
    names = [n for n in named_terms(question) if n.casefold() != own and n.casefold() not in hit.title.casefold()]

    def says_named(text: str) -> bool:
        rest = re.sub(re.escape(short_name(hit)), " ", text, flags=re.IGNORECASE)
        return all(says_name(rest, n, ignore_case=True) for n in names)

    sentences = split_sentences(hit.abstract)
    skip = _skipped(hit.abstract, False)
    taken = {s.start for s in chosen}
    more = [
        s
        for i, s in enumerate(sentences)
        if s.start not in taken
        and s.text not in skip
        and numbers(s.text)
        and _GAIN_FIGURE.search(s.text)
        and not sets_scene(sentences, i)
        and says_named(s.text)
    ]
    return _with_more(chosen, _of_the_measure(more, question))


def _of_the_measure(more: list[Sentence], question: str) -> list[Sentence]:
    """The further sentences that speak of the measure ``question`` names, if it names one: "how much
    memory does MeZO-SVRG save, compared to what?" is not answered by its accuracy and GPU-hours too
    (c713.3 was padded with both)."""
    asked = _HOW_MUCH_OF.search(question)
    measured = _GAIN_MEASURES & set(words(asked.group(1))) if asked else set()
    return [s for s in more if measured & set(words(s.text))] if measured else more


# "how much memory does it save": the measure asked by name ("cut inference latency - which papers have speedup
# numbers?" asks every figure)
_HOW_MUCH_OF = re.compile(r"\bhow (?:much|many)\s+((?:[\w-]+\s+)?[\w-]+)", re.IGNORECASE)


_GAIN_MEASURES = frozenset(
    words("memory latency accuracy communication throughput perplexity error flops steps runtime")
)


def _with_more(chosen: list[Sentence], more: list[Sentence]) -> list[Sentence]:
    """``chosen`` with the first of ``more`` that fit in ``MAX_GAIN_SENTENCES``, in abstract order."""
    room = MAX_GAIN_SENTENCES - len(chosen)
    if room <= 0 or not more:
        return chosen
    return sorted([*chosen, *more[:room]], key=lambda s: s.start)


# "and the transformer one is compared to what?", "which baselines?": what the paper measures itself
# against, wherever it says so (c547.3 gave self-attention and left out the neural operators and FNO)
_ASKS_WHAT_AGAINST = re.compile(
    r"\bcompared? (?:it |them )?(?:to|with|against) what\b|"
    r"\bwhat (?:is|are|was|were) (?:it|they|each|the \w+(?: one)?) compared (?:to|with|against)\b|"
    r"\bwhat (?:does|do|did) (?:it|they|each) (?:compare|measure) (?:it|them|themselves|itself )?\s*(?:to|with|against)\b|"
    r"\b(?:which|what) baselines?\b|\bagainst what\b",
    re.IGNORECASE,
)
_COMPARES = re.compile(
    r"\b(?:over|than|compared (?:to|with)|outperform\w*|against|surpass\w*|beats?|advantages? over|superior)\b",
    re.IGNORECASE,
)


def with_other_comparisons(hit: Hit, chosen: list[Sentence], question: str) -> list[Sentence]:
    """``chosen`` with the abstract's other sentences that set the paper against something, in
    abstract order, up to ``MAX_GAIN_SENTENCES``, when ``question`` asks what it is compared to."""
    if not chosen or not _ASKS_WHAT_AGAINST.search(question):
        return chosen
    sentences = split_sentences(hit.abstract)
    skip = _skipped(hit.abstract, False)
    taken = {s.start for s in chosen}
    # what earlier work beat ("More recently, MeZO ... has been shown to consistently outperform
    # zero-shot ...") is said before the paper's own method: not this paper's comparison
    own = next((s.start for s in sentences if METHOD_CUE.search(s.text) or _WE.search(s.text)), 0)
    more = [
        s
        for i, s in enumerate(sentences)
        if s.start not in taken
        and s.start >= own
        and s.text not in skip
        and _COMPARES.search(s.text)
        and not _BACKGROUND.search(s.text)
        and not sets_scene(sentences, i)
    ]
    return _with_more(chosen, _of_the_measure(more, question))


# "Is diffusion tempering a diffusion model?", "is that one a transformer too?": whether the paper is
# a kind of thing, asked of one paper.
_IS_A_KIND = re.compile(
    r"\bis (?!there\b|anyone\b|anything\b|any\b)(?:it|that|this|that one|this one|the [\w-]+(?: [\w-]+)? (?:one|paper)|"
    r"[\w-]+(?: [\w-]+){0,2}) "
    r"(?:really |actually |also |basically |itself )?an? ((?:[\w-]+ ){0,3}[\w-]+)\s*\?*\s*$",
    re.IGNORECASE,
)


# "is it a good paper?", "is that one a paper on X?": no kind of method or model is asked
_NO_KIND = set(tokenize("paper papers work one study good bad new real thing way idea lot problem question kind sort"))


def kind_not_said(question: str, hit: Hit) -> str:
    """ "The abstract never calls it a “diffusion model” [1]." when ``question`` asks whether the paper
    is a kind of thing that no sentence of its abstract or its title names, word for word in a
    row; "" otherwise (the abstract's own sentences answer)."""
    asked = _IS_A_KIND.search(question)
    if asked is None:
        return ""
    kind = re.sub(r"\s+(?:too|as well|then|at all)$", "", asked.group(1).strip(), flags=re.IGNORECASE)
    wanted = words(kind)
    if not wanted or all(w in GENERIC for w in wanted) or set(wanted) & _NO_KIND:
        return ""
    n = len(wanted)
    for text in [hit.title, *(s.text for s in split_sentences(hit.abstract))]:
        said = words(text)
        if any(said[i : i + n] == wanted for i in range(len(said) - n + 1)):
            return ""
    article = "an" if kind[:1].lower() in "aeiou" else "a"
    return f"The abstract never calls it {article} “{kind}” [1]."


# "What do they show about sharpness?", "what does it say regarding memory": the words after
# "about" are what the answer must speak of, whatever kind of fact is asked.
_ABOUT_WHAT = re.compile(
    # ("Regarding the Granger causality paper: what shortcomings ...?" names the paper; c553.3 demanded
    # every word of the question after it)
    r"\b(?:about|regarding|concerning)\s+(?!(?:the|that|this) [^?.;,:]{0,60}?\b(?:paper|one|work)\s*[:,])([^?.;,]+)|"
    # "did the world model paper test on atari?", "does it test its model on real advertising data?": a
    # yes/no question of what it was tested on, which the abstract says or does not (a sentence on its
    # other experiments does not answer)
    r"^\W*(?:(?:so|and|but)\s+)?(?:did|does|do|was|were)\b[^?]*?\b(?:test(?:ed|s)?|evaluat\w*|benchmark(?:ed|s)?|"
    r"tr(?:y|ied)|validat\w*)\s+(?:it\s+|them\s+|this\s+|(?:its|their|the|this) [\w-]+\s+)?(?:on|against)\s+([^?.;,]+)|"
    # "does ewok come with any regret or convergence guarantees?": what it is said to come with
    r"^\W*(?:(?:so|and|but)\s+)?(?:did|does|do)\b[^?]*?\b(?:come|came) with\s+(?:any\s+)?([^?.;,]+)",
    re.IGNORECASE,
)


_MAKING = frozenset(words("design designs construction building creation"))


def _demanded(question: str) -> tuple[list[set[str]], list[str]]:
    """The asked words an answer must hold, one set per alternative: those after "about" in a
    question about the papers in focus ("what do they show about sharpness?"; none in "what is it
    about?"), or what a yes/no question asks it was tested on or comes with ("simulated control or
    robot tasks" holds either); and those alternatives as the user wrote them (none for "about")."""
    found = _ABOUT_WHAT.search(question)
    if not found:
        return [], []
    if found.group(1):
        # "what do they say about lora or adapters?": every word asked must be there ("adapters" is
        # not the "domain adaptation" of another sentence)
        wanted = {t for t in focal_terms(found.group(1)) if t not in _ASKABLE and t not in GENERIC}
        # "what does each conclude about benchmark design?": the making of a thing is said of the thing ("the
        # aggregated rankings of existing benchmarks are highly unstable"; c632.2 found no "design" there)
        return [wanted - _MAKING if wanted - _MAKING else wanted], []
    said = found.group(2) or found.group(3)
    tested_on = [p for p in re.split(r"\s+or\s+", said.strip(), flags=re.IGNORECASE) if p]
    alternatives = [{t for t in focal_terms(part) if t not in _ASKABLE and t not in GENERIC} for part in tested_on]
    return [a for a in alternatives if a], tested_on


_POINTS_AT_ONE = re.compile(r"\b(?:it|this paper|that paper|the paper)\b", re.IGNORECASE)


def _names_paper(hit: Hit, question: str) -> bool:
    """Does the question name the paper (its method's name, or title words in a row), or point at
    the one in focus ("how does it compare to algebraic multigrid?")?"""
    name = short_name(hit).strip("“”")
    return (
        bool(_title_run(question, hit.title))
        or (len(name) <= 30 and name.casefold() in question.casefold())
        or (bool(_POINTS_AT_ONE.search(question)) and len(question.split()) <= 14)
    )  # a short follow-up


def _covering(
    sentences: Sequence[Sentence], terms: Sequence[str], picked: Sequence[Sentence], concept: Sequence[str] = ()
) -> Sentence | None:
    """The sentence that answers a further part of a long question: it holds at least two asked
    words the picked sentences do not, or the one sentence holding a word of the asked ``concept``
    that they lack ("learning-rate warm-up": "we devise a hyper-parameter-free warm-up method"),
    and it is not background."""
    have = set(words(" ".join(s.text for s in picked)))
    open_terms = [t for t in terms if not holds(have, t)]
    # A concept word said in one sentence only is said where the paper does it.
    single = {t for t in open_terms if t in concept and sum(holds(set(words(s.text)), t) for s in sentences) == 1}
    best: tuple[int, int, Sentence] | None = None
    # Sentences before the contribution set the scene ("although ODEs are differentiable ..."); only
    # those after it, or stating a contribution themselves, answer a further part.
    after = picked[0].start if picked else -1
    for i, s in enumerate(sentences):
        if (
            any(s.start == p.start for p in picked)
            or _BACKGROUND.search(s.text)
            or (s.start < after and not METHOD_CUE.search(s.text))
        ):
            continue
        present = set(words(s.text))
        new = sum(holds(present, t) for t in open_terms)
        if (new >= 2 or any(holds(present, t) for t in single)) and (best is None or new > best[0]):
            best = (new, -i, s)
    return best[2] if best else None


# "How big were the models?", "how large is it?": the paper's figures answer a question of size.
_SIZE_WORDS = set(tokenize("big bigger large larger size sizes scale much many long"))
# "whats the biggest speedup each one reports": which of the figures, not a word to find (c601.3 said ParaTAA
# "gives no figure" beside its "by a factor of 4~14 times")
_NUMBER_ASKS = set(
    tokenize(
        "number numbers figure figures stats statistics biggest largest highest greatest max maximum "
        # "which one claims the bigger speedup", "going by the numbers": the figure each reports, however
        # it is claimed (c221.4)
        "bigger larger higher greater claim claims claimed report reports reported going"
    )
)


_WHY = re.compile(r"\s*why\b", re.IGNORECASE)
_ASKS_WHY = re.compile(r"\bwhy\b", re.IGNORECASE)


# "To address this limitation, we ... with relaxed assumptions": what the paper does about the
# assumption or limitation the sentence before it states
_RELIEVES = re.compile(
    r"^\W*(?:to (?:address|overcome|remedy|relax|remove|lift|alleviate|mitigate|resolve|avoid) (?:this|these|such|the|that)\b|"
    r"we (?:then |further |also )?relax\w*\b)",
    re.IGNORECASE,
)


def _with_own_choice(
    found: list[Sentence], sentences: Sequence[Sentence], facets: Sequence[Facet], question: str
) -> list[Sentence]:
    """``found`` and, for "why a mixture of experts instead of a regular policy?", the sentence right
    after it that proposes the paper's own choice ("We propose Di-SkilL, ... using Mixture of
    Experts"): what the usual way lacks is half of why; what the paper does instead is the other. An assumption
    the paper relaxes next comes with its relief ("However, it relies on strong assumptions on bounded
    gradients. To address this limitation, ... advanced algorithms with relaxed assumptions", c506.3)."""
    if found and any(f.name == "conditions" for f in facets):
        after = [s for s in sentences if s.start >= found[-1].end]
        if after and _RELIEVES.match(after[0].text) and after[0] not in found:
            return [*found, after[0]]
    if not found or not facets or not all(f.prior_only for f in facets) or not _ASKS_WHY.search(question):
        return found
    after = [s for s in sentences if s.start >= found[-1].end]
    if after and _PROPOSES.search(after[0].text):
        return [*found, after[0]]
    return found


_ASKS_MENTION = re.compile(r"\b(?:mentions?|mentioning|talks? about|speaks? of)\b", re.IGNORECASE)


def lookup_sentences(hit: Hit, question: str, need_number: bool = False, pointers_ok: bool = False) -> list[Sentence]:
    """What a single-paper answer leads with: the sentence holding the asked number; else, when the
    question names the paper, the sentence that answers it; else what the paper does, then the
    sentences that answer what was asked (up to two, each covering another part of the question)."""
    # "totally unrelated: is there a paper on ...?" asks as "is there a paper on ...?" does.
    question = TOPIC_CHANGE.sub("", question)
    if need_number:
        found = answer_sentences(hit, question, True, pointers_ok)
        if found:
            return found + _other_parts(hit, question, found, pointers_ok)
    skip = _skipped(hit.abstract, pointers_ok)
    if _SUMMARY_ASK.search(question):
        return summary_sentences(hit, question)  # "what is X", "summarize the Y paper": what it does and finds
    covering = _covering_any(hit, question, skip)
    if covering:
        return covering
    # "Why not just use standard Pufferfish?" asks what earlier work lacks: said as background.
    prior = any(f.prior_only for f in asked_facets(question))
    asked = [s for s in answer_sentences(hit, question, False, pointers_ok) if prior or not _BACKGROUND.search(s.text)]
    # "Is diffusion tempering a diffusion model?" needs what the paper does, not only the asked words.
    named_paper = bool(asked) and _names_paper(hit, question) and not YES_NO.match(question)
    doing = what_it_does(hit.abstract, hit.title, skip)
    if prior and doing is not None and any(s.start == doing.start for s in asked):
        # "why a Jacobian regularizer instead of the usual approach?": the limitations listed, then
        # the proposal that answers them, already say what the paper does.
        return asked
    if (
        named_paper
        and doing is not None
        and not set(asked_terms(question)) & _PROBLEM_WORDS
        and not prior
        and not _WHY.match(question)  # "why do preconditioners help?": the motivation is the reason
    ):
        # "how would I explain a black-box time series model when time steps interact?": the paper's
        # own sentences answer; one before its contribution ("Unlike tabular data, time steps
        # interact ...") restates the problem the question already describes, so the contribution
        # answers in its place.
        asked = [s for s in asked if s.start >= doing.start or METHOD_CUE.search(s.text)] or [doing]
    if named_paper and len(_parts(question)) < 2:
        return asked  # "which Atari benchmark was Hare & Tortoise evaluated on": the paper is known
    # "Why do neural preconditioners help Poisson solvers ..., and what do they beat?": the paper is
    # known, so the first part's sentence leads and each further part gets its own.
    lead = asked[:1] if named_paper else [doing] if doing is not None else []
    if lead and asked and all(s.start == lead[0].start for s in asked):
        # "Is there theory explaining why ...": the sentence stating it is the next best after the
        # contribution the answer already leads with ("we propose CILA ... inspired by our theory").
        asked = [
            s
            for s in answer_sentences(hit, question, False, pointers_ok, exclude=[lead[0].text])
            if not _BACKGROUND.search(s.text)
        ]
    # An asked-words sentence before the contribution only sets the scene ("although ODEs are ..."),
    # unless the question asks where the abstract mentions it ("any other abstract that mentions
    # variational inference?": "... in various domains, including ... variational inference").
    mentions = _ASKS_MENTION.search(question) is not None
    if mentions and not asked:
        asked = answer_sentences(hit, question, False, pointers_ok)
    picked = (
        lead
        + [
            s
            for s in asked
            if all(s.start != d.start for d in lead)
            and (not lead or s.start > lead[0].start or METHOD_CUE.search(s.text) or mentions or prior)
        ][:1]
    )
    sentences = split_sentences(hit.abstract)  # once: each part and the covering sentence look at them
    if len(picked) > len(lead):
        # "We evaluate ReadAgent against baselines ... These evaluations are performed on ... QuALITY": the
        # answer goes on in the next sentence, which answers too and points back (c482.4 named no dataset)
        after = next((s for s in sentences if s.start >= picked[-1].end), None)
        if after is not None and points_back(after.text) and any(s.start == after.start for s in asked):
            picked.append(after)
    for part in _parts(question)[1:]:
        # "what rates can one prove ..., and how do you project onto a ball?": each part gets its
        # sentence, found by the part's words the picked sentences do not hold yet ("noise level"
        # after "numerical methods"); a sentence pointing back ("These distillation coefficients
        # are computed by ...") may follow the one it points to.
        have = set(words(" ".join(s.text for s in picked)))
        open_terms = [t for t in focal_terms(part) if not holds(have, t)]
        if not open_terms:
            continue
        found = [
            s
            for s in answer_sentences(hit, part, False, True, terms=open_terms)
            if all(s.start != p.start for p in picked)
            and not _BACKGROUND.search(s.text)
            and (not lead or s.start > lead[0].start or METHOD_CUE.search(s.text))
            and (not is_pointer(s.text) or _follows(s, picked, sentences))
        ]
        if found and len(picked) < 3:
            # "Our main technical result establishes ... This allows us to find an equilibrium": the
            # sentence that answers points back to the one before it, which comes as its antecedent.
            chain = found[:1]
            if len(found) > 1 and _follows(found[1], found[:1], sentences) and dangles(found[1].text):
                # with room for one only, the answering sentence (the line takes its antecedent after)
                chain = found[:2] if len(picked) + 2 <= 3 else found[1:2]
            picked.extend(chain)
    named = _title_run(question, hit.title) | set(words(short_name(hit)))
    terms = [t for t in focal_terms(question) if t not in named and t not in GENERIC]
    more = _covering([s for s in sentences if s.text not in skip], terms, picked, topic(question).required)
    picked += [more] if more is not None and len(picked) < 3 else []
    # "We propose a practical implementation of this far-reaching theoretical result": with the result.
    picked = with_antecedent(picked, sentences, finding=True)
    # What earlier work lacks reads before the remedy, as the abstract says it.
    return sorted(picked, key=lambda s: s.start) if prior else picked


# A part asking an amount: the figures found for the first part are the answer, or none is
_NUMBER_ASKED = re.compile(
    r"\bhow (?:many|much|big|large|fast|long|often)\b|\bby how much\b|\bwhat (?:speed-?ups?|factor|percentage)\b|"
    r"\b(?:numbers|figures)\b",
    re.IGNORECASE,
)
MAX_PART_SENTENCES = 3  # one line answering several parts: a fourth sentence retells the abstract


# "can i just use ppo with it?", "could I wrap my PPO code with it?": whether the method goes with a
# thing the user names, which an abstract says of any such thing ("EWoK can be applied on top of any
# off-the-shelf non-robust RL algorithm"); four judged turns asked it and none got that sentence.
_GOES_WITH = re.compile(
    r"\b(?:can|could) (?:i|we|you|one) (?:just |simply |still )?(?:use|plug|wrap|combine|apply|run|pair|keep|"
    r"bring)\b|\b(?:plug\w* \w+ into|work with|compatible with|on top of)\b",
    re.IGNORECASE,
)
_ANY_KIND = re.compile(
    r"\b(?:any|arbitrary)\b(?: [\w-]+){0,3} (?:algorithms?|methods?|models?|architectures?|optimizers?|solvers?)\b",
    re.IGNORECASE,
)


def _covering_any(hit: Hit, question: str, skip: Sequence[str]) -> list[Sentence]:
    """What the paper does and the sentence saying it goes with any thing of a kind, when the
    question asks whether it goes with a thing the abstract never names; else []."""
    if not _GOES_WITH.search(question):
        return []
    present = set(words(f"{hit.title} {hit.abstract}"))
    asked = [t for t in focal_terms(question) if t not in GENERIC and t not in _ASKABLE]
    if not asked or all(holds(present, t) for t in asked):
        return []  # "does it work with FlashAttention?" of an abstract naming it: its own sentence answers
    universal = [
        s for s in split_sentences(hit.abstract) if _ANY_KIND.search(s.text) and not _BACKGROUND.search(s.text)
    ]
    if not universal:
        return []
    doing = what_it_does(hit.abstract, hit.title, skip)
    return ([doing] if doing is not None and doing.start < universal[0].start else []) + universal[:1]


def _other_parts(hit: Hit, question: str, found: Sequence[Sentence], pointers_ok: bool) -> list[Sentence]:
    """The sentences answering the parts after a number asked first: "how much longer context can
    it handle and what datasets" gets the sentence naming the datasets too, "how big were the LMs,
    and can you steer generation with it?" the one on steering (each was left out, c409.2, c398.1)."""
    more: list[Sentence] = []
    # every part but those asking an amount: "what datasets + how much longer context" asks the
    # datasets first (c482.4)
    for part in _parts(question):
        if _NUMBER_ASKED.search(part):
            continue  # a second number is what the sentences found hold already, or none does
        have = {s.start for s in [*found, *more]}
        answering_part = [
            s
            for s in answer_sentences(hit, part, False, pointers_ok)
            if s.start not in have and not _BACKGROUND.search(s.text)
        ]
        if answering_part and len(found) + len(more) < MAX_PART_SENTENCES:
            more.append(answering_part[0])
            # "We evaluate ReadAgent against baselines ... These evaluations are performed on ... QuALITY":
            # the sentence right after, that the part's answer continues in
            rest = answering_part[1:2]
            if (
                rest
                and _follows(rest[0], more, split_sentences(hit.abstract))
                and len(found) + len(more) < MAX_PART_SENTENCES
            ):
                more.append(rest[0])
    return more


def _follows(sentence: Sentence, picked: Sequence[Sentence], sentences: Sequence[Sentence]) -> bool:
    """Is the sentence right before ``sentence`` among ``picked`` (so a pointer in it reads right)?"""
    before = [s for s in sentences if s.end <= sentence.start]
    return bool(before) and any(p.start == before[-1].start for p in picked)


# Where a question asks a further thing: "..., and how do you ...", "... work? Is there ...".
_PART_BREAK = re.compile(
    r"\?\s+|,?\s+and (?=(?:how|what|which|why|whether|is there|are there|does|do|can|a way|(?:i|we|you|one) can)\b)|;\s+|"
    # "what datasets + how much longer context does it get" (c482.4)
    r"\s+\+\s+|"
    # "..., is there a threshold rate beyond which they grow, and ...": a further question after a comma;
    # "... gets stuck in local optima. Is there a trick ...": the question after the setting.
    r"(?:,|\.)\s+(?=(?:is there|are there|is it|does it|do they|can it|can one|how|what|which|why)\b)",
    re.IGNORECASE,
)


_NAMES_ONLY = re.compile(
    r"^\W*(?:(?:and|so|ok|okay|now|back to)\s+)?(?:the|that|this)\s+(?:[\w&-]+\s+){0,4}"
    r"(?:one|paper|agent|reader|method)\W*$",
    re.IGNORECASE,
)


def _parts(question: str) -> list[str]:
    """The parts of a question that asks several things, each long enough to hold its own words."""
    parts = [p.strip() for p in _PART_BREAK.split(question) if p and p.strip()]
    # "and the long doc reader, what datasets ...": the paper asked of, named before the question, asks nothing
    parts = [p for p in parts if not _NAMES_ONLY.match(p)]
    # "how much longer context can it handle and what datasets": a short part asking a kind of fact
    # (datasets, experiments, code) asks its own thing (c409.2 left the datasets out)
    return [p for p in parts if len(p.split()) >= 4 or (len(p.split()) >= 2 and asked_facets(p))] or [question]


def aspect_sentence(hit: Hit, aspect: str) -> Sentence:
    """The abstract sentence that best states the paper's problem, method or results."""
    return aspect_sentences(hit)[aspect]


def aspect_sentences(hit: Hit) -> dict[str, Sentence]:
    """The paper's problem, method and results, each a different sentence where the abstract has
    enough: the contribution sentence ("we propose ...") is the method; the problem is a sentence
    before it; the results are the last results sentence after it."""
    sentences = split_sentences(without_injections(hit).abstract)
    sentences = [s for s in sentences if not is_pointer(s.text)] or sentences  # a code link is no result
    if not sentences:
        title = split_sentences(hit.title or "Untitled")[0]
        return {aspect: title for aspect in ASPECTS}
    doing = what_it_does(" ".join(s.text for s in sentences))
    contribution = [
        s
        for s in sentences
        if doing is not None and s.text == doing.text and (_WE.search(s.text) or METHOD_CUE.search(s.text))
    ]
    cued = [s for s in sentences if _ASPECT_CUES["method"].search(s.text)]
    method = contribution[0] if contribution else cued[0] if cued else sentences[min(1, len(sentences) - 1)]
    before = [s for s in sentences if s.start < method.start]
    problems = [s for s in before if _ASPECT_CUES["problem"].search(s.text)]
    problem = problems[0] if problems else before[0] if before else sentences[0]
    after = [s for s in sentences if s.start > method.start]
    results = [s for s in after if _ASPECT_CUES["results"].search(s.text)]
    result = results[-1] if results else after[-1] if after else sentences[-1]
    return {"problem": problem, "method": method, "results": result}


# What a results cell must state: a measured or proven outcome, not another design choice.
# "Results" and "evaluated" alone are no outcome: "A common ingredient underlying our results is ...",
# "The map M can be either evaluated pointwise ...". "We illustrate possible applications" is one.
_FINDING = re.compile(
    r"\b(?:we (?:\w+ )?(?:show|find|prove|demonstrate|reveal|observe|establish|illustrate|evaluate|discover)|"
    r"to (?:show|prove) that|"
    r"results? (?:show|demonstrate|indicate|suggest|confirm|provide|illustrate|reveal|highlight)\w*|"
    r"results (?:on|for|with)\b|experiments?|experimental|outperform\w*|state-of-the-art|achiev\w*|superior|"
    r"surpass\w*|evaluat\w+ (?:on|across|in)\b|empirical\w*|improv\w*|reduc(?:e|es|ed|ing)\b|reductions? (?:in|of)\b|"
    r"faster|speed\w*|competitive|"
    r"trade-?off|bounds?|guarantee\w*|validat\w*|showcas\w*|applicab\w*)",
    re.IGNORECASE,
)
_STRONG_OUTCOME = re.compile(
    r"\b(?:we (?:\w+ )?(?:show|prove|demonstrate|find|establish|validate)|outperform\w*|state-of-the-art|"
    r"surpass\w*|showcas\w*|better \w+ than|than (?:competitive |strong )?baselines)\b|\d",
    re.IGNORECASE,
)
# "In this work, we take a step toward bridging this gap ...", "We apply Arrow's theorem ...", "We
# formalize how these disparities evolve ...": the paper's own doing, not the problem it addresses.
# "We argue these limitations hinder ..." states the problem.
_OWN_DOING = re.compile(
    r"^\W*(?:(?:in|with) this (?:work|paper|study)|here),?\s+we\b|\b(?:take a step|step toward|bridg\w+ (?:this|the) gap)",
    re.IGNORECASE,
)
# "To this end, we introduce the Hare & Tortoise": the proposal that answers an opening aim.
_ANSWERS_AIM = re.compile(
    r"^\W*(?:to this end|to (?:address|tackle|overcome|solve|bridge|mitigate|resolve)\b|accordingly|therefore)",
    re.IGNORECASE,
)
_PROPOSES = re.compile(
    r"\b(?:we (?:\w+ )?(?:propose|introduce|present|design|develop)|(?:and|then) propose|is proposed|"
    r"is introduced)\b",
    re.IGNORECASE,
)
# A contribution sentence that states an aim, not a method ("we explore a new generative approach",
# "we make an attempt to bridge this gap"): the method cell adds the sentence after it.
_VAGUE = re.compile(
    r"\b(?:aim|aims|explore|explores|attempt|take a step|step toward|bridge (?:this|the) gap|"
    r"understand|investigate|study)\b",
    re.IGNORECASE,
)


def table_cells(hit: Hit) -> dict[str, list[Sentence]]:
    """The comparison table's problem, method and results cells for ``hit``: different sentences;
    the problem is the gap stated last before the contribution, the method adds the sentence after
    an aim-only contribution ("we explore ..."), the results is the last outcome after it; a
    dangling sentence ("They confront ...") comes with the one it points back to; a cell is empty
    where the abstract states no separate problem or no result."""
    sentences = [s for s in split_sentences(without_injections(hit).abstract) if not is_pointer(s.text)]
    if not sentences:
        return {aspect: [] for aspect in ASPECTS}
    method = aspect_sentences(hit)["method"]
    if SHOWS_FINDING.search(method.text) and not _PROPOSES.search(method.text):
        # "We show that transformer world models produce circuitous gradients ... we propose AWMs":
        # the finding motivates; the method is what the paper proposes.
        method = next((s for s in sentences if s.start > method.start and _PROPOSES.search(s.text)), method)
    elif _VAGUE.search(method.text) and not _PROPOSES.search(method.text):
        # "This study investigates the loss of generalization ... To this end, we introduce the Hare &
        # Tortoise": the aim leads to what the paper proposes, which is the method.
        aim = sentences.index(method)
        method = next(
            (s for s in sentences[aim + 1 : aim + 4] if _PROPOSES.search(s.text) and _ANSWERS_AIM.search(s.text)),
            method,
        )
    after = [s for s in sentences if s.start > method.start]
    cell = [method]
    if (
        _VAGUE.search(method.text)
        and after
        and not _FINDING.search(after[0].text)
        and not _BACKGROUND.search(after[0].text)  # "It's common practice to ... via a majority vote"
    ):
        cell.append(after[0])
    before = [s for s in sentences if s.start < method.start]
    gaps = [s for s in before if _ASPECT_CUES["problem"].search(s.text) and not _OWN_DOING.search(s.text)]
    setting = [s for s in before if not _OWN_DOING.search(s.text)]
    problem = gaps[-1] if gaps else setting[-1] if setting else None
    if before and solves_the_one_before(method.text) and not _OWN_DOING.search(before[-1].text):
        # "... leading to significant communication overhead. To resolve this issue, we introduce ...":
        # the issue the contribution names is the problem, not an earlier line of background.
        problem = before[-1]
    if problem is None:  # "We introduce a solver ... Such systems are large and ill-conditioned": stated after
        problem = next(
            (
                s
                for s in after
                if s.start not in {c.start for c in cell}
                and _ASPECT_CUES["problem"].search(s.text)
                and not _FINDING.search(s.text)
                # "This unified approach transforms ... DP problems": it goes on about the method.
                and not dangles(s.text)
            ),
            None,
        )
    used = {s.start for s in cell}
    outcomes = [s for s in _outcomes(after) if s.start not in used]
    # "we show that the tractable objective has a pure Nash equilibrium" is the result; a closing
    # "Conceptually, our work combines elements from ..." only sums up.
    strong = [s for s in outcomes if _STRONG_OUTCOME.search(s.text)]
    result = strong[-1] if strong else outcomes[-1] if outcomes else None
    problem_cell = with_antecedent([problem], sentences) if problem is not None else []
    if problem_cell and _REFERS_BACK.search(problem_cell[0].text):
        # "... could they be the solution to this problem?", "We argue these limitations hinder ...":
        # the problem is the sentence it refers to.
        earlier = [s for s in sentences if s.end <= problem_cell[0].start]
        problem_cell = earlier[-1:] + problem_cell
    stated = {s.start for s in problem_cell}
    # One sentence is never shown twice: what the problem cell holds is not the method's too.
    method_cell = [s for s in with_antecedent(cell, sentences) if s.start not in stated] or cell
    return {
        "problem": problem_cell,
        "method": method_cell,
        "results": with_antecedent([result], sentences) if result is not None else [],
    }


def _outcomes(sentences: Sequence[Sentence]) -> list[Sentence]:
    """The sentences that state an outcome (a measured or proven result), not a proposal."""
    return [s for s in sentences if _FINDING.search(s.text) and not _PROPOSES.search(s.text)]


# A sentence that names what it is about by pointing back ("this problem", "these limitations",
# "these sparse subnetworks"): it reads right only after the sentence it points to.
_REFERS_BACK = re.compile(
    r"^\W*(?:\w+\W+){0,8}?(?:this|these|those|such)\s+(?!paper\b|work\b|study\b|article\b|end\b|way\b)[a-z]|"
    r"\b(?:this|these) (?:problems?|issues?|limitations?|gaps?|challenges?|questions?|drawbacks?)\b",
    re.IGNORECASE,
)


_CONTRIBUTIONS = re.compile(r"\bcontribut(?:e|es|ed|ions?)\b", re.IGNORECASE)
_OURS = re.compile(r"\b(?:we|our)\b", re.IGNORECASE)  # "We first generalize ...", "underlying our results"
MAX_CONTRIBUTIONS = 4  # a contribution list longer than this is the whole abstract


def summary_sentences(hit: Hit, question: str = "") -> list[Sentence]:
    """What the paper does, how, and what it finds, in abstract order: its method sentence, the
    sentence after it that says how it works, its results sentence; and the sentence naming what
    the question names when that is not the paper itself ("What is C-SOBA?")."""
    sentences = [s for s in split_sentences(without_injections(hit).abstract) if not is_pointer(s.text)]
    picked = aspect_sentences(hit)
    if _CONTRIBUTIONS.search(question):
        # "What does the Rényi Pufferfish paper contribute?": each thing "we" did, in order, not
        # only the headline and its result.
        made = [
            s
            for s in sentences
            if s.start >= picked["method"].start and _OURS.search(s.text) and not _BACKGROUND.search(s.text)
        ]
        if len(made) >= 2:
            return with_antecedent(made[:MAX_CONTRIBUTIONS], sentences)
    # The result is the last measured or proven outcome ("We show two different outcomes ..."), as
    # in the comparison table, not a closing remark that only holds a results word.
    strong = [s for s in _outcomes(sentences) if s.start > picked["method"].start and _STRONG_OUTCOME.search(s.text)]
    result = strong[-1] if strong else picked["results"]
    chosen = {picked["method"].start: picked["method"], result.start: result}
    name = short_name(hit).strip("“”").casefold()
    for term in _NAMED_THING.findall(question):
        if term.casefold() in name or term.casefold() in hit.title.casefold():
            continue
        naming = [s for s in sentences if re.search(rf"(?<![\w-]){re.escape(term)}(?![\w-])", s.text)]
        if naming:
            chosen[naming[0].start] = naming[0]
            break
    how = next(
        (
            s
            for s in sentences
            if s.start > picked["method"].start
            and s.start < result.start
            and _MECHANISM.search(s.text)
            and not _BACKGROUND.search(s.text)
        ),
        None,
    )
    # What it argues or proves ("we show ...", "we prove ...") is the gist of an analysis paper.
    finding = next(
        (
            s
            for s in sentences
            if s.start > picked["method"].start and s.start not in chosen and _STATES_FINDING.search(s.text)
        ),
        None,
    )
    for extra in (how, finding):
        if extra is not None and len(chosen) < 3:
            chosen[extra.start] = extra
    return with_antecedent([chosen[k] for k in sorted(chosen)], sentences)


def _name_words(hit: Hit) -> set[str]:
    """The words of the name a paper goes by ("Mobile Attention", "ReadAgent"); none when that is
    its whole title: "does the first one use transformers?" asks about transformers even when the
    title says "Transformer" (title words in a row still name it, see ``_title_run``)."""
    name = short_name(hit)
    return set() if name.startswith("“") else set(words(name))


def is_named_by(hit: Hit, target: str) -> bool:
    """Does ``target`` name the paper: its short name ("LEO", "Lookahead decoding"), title words in
    a row ("the Poisson solver paper"), or a name the paper introduces ("we first propose C-SOBA")?"""
    # A quoted title is no name: "reinforcement learning" is in many titles and names a topic.
    name = short_name(hit)
    said = target.strip().casefold()
    if not name.startswith("“") and (
        name.casefold() in said or (said in name.casefold() and (len(said.split()) >= 2 or target != target.lower()))
    ):
        return True
    # "the competing treatments one" names it as "the competing treatments paper" would
    if re.search(r"\b(?:paper|one)\b", target, re.IGNORECASE) and _title_run(
        re.sub(r"\bone\b", "paper", target, flags=re.IGNORECASE), hit.title
    ):
        return True
    single = re.fullmatch(r"\s*the ([a-z][\w-]{3,}) (?:one|paper)\s*", target, re.IGNORECASE)
    if single and set(words(single.group(1))) <= set(words(hit.title)) - GENERIC:
        return True  # "the skills one": the one word of its title it is known by
    terms = named_terms(target)
    return bool(terms) and all(
        term in hit.title
        or re.search(
            rf"\b(?:propose|introduce|present|develop|design|call|called|dubbed)\s+(?:[\w-]+\s+){{0,3}}?"
            rf"[\w-]*{re.escape(term)}\b|"
            # "Theoretical analysis demonstrates our method, FedPIN, can ..."
            # "Our method, DARL, employs ..." opening a sentence (c688.4)
            rf"\b[Oo]ur (?:method|approach|framework|algorithm|model|system),\s+{re.escape(term)}\b",
            hit.abstract,
        )
        for term in terms
    )


def short_name(hit: Hit) -> str:
    """What a paper is called in running text: the name it gives its method, the title's lead before
    a colon, else the quoted title."""
    lead = hit.title.split(":", 1)[0].strip()
    if ":" in hit.title and len(lead.split()) <= 4:
        return lead
    acronym = re.search(
        r"\b(?i:we (?:propose|introduce|present|develop|design|call))\s+(?:[\w-]+,?\s+){0,8}?"
        r"\(([A-Z][\w-]*[A-Z][\w-]*)\)",
        hit.abstract,
    )
    if acronym:
        return acronym.group(1)
    found = re.search(
        r"\b(?i:we (?:propose|introduce|present|develop|design|call))\s+(?:(?:a|an|the)\s+)?"
        r"([A-Z][\w-]*(?:\s*&\s*[A-Z][\w-]*)?(?:\s+(?:[A-Z][\w-]*|decoding|networks?|features?))?)(?=[\s,(:])",
        hit.abstract,
    )
    if found and len(found.group(1)) <= 30 and found.group(1).split()[0].lower() not in {"a", "an", "the", "in"}:
        return found.group(1)
    return f"“{hit.title}”"


def third_person(sentence: str) -> str | None:
    """ "We propose X ..." as "proposes X ..." (the paper as subject); None when the sentence is not
    a "we" statement. Only pronouns and the verb's ending change."""
    match = _WE_CLAUSE.match(sentence.strip())
    if not match:
        return None
    adverb, verb, rest = match.group(1), match.group(2), match.group(3)
    verb = _conjugate(verb.lower())
    rest = re.sub(r"\bour\b", "its", rest)
    rest = re.sub(
        r"\bwe ([a-z]+)\b", lambda m: "it " + _conjugate(m.group(1)), rest
    )  # "what we call" -> "what it calls"
    rest = re.sub(r"\b(?:we|us)\b", "it", rest)
    rest = re.sub(r"\bit are\b", "it is", rest)
    return f"{adverb + ' ' if adverb else ''}{verb}{rest}".rstrip(" .")


def _conjugate(verb: str) -> str:
    if verb in _MODALS:
        return verb
    if verb == "are":
        return "is"
    if verb == "have":
        return "has"
    if verb.endswith("y") and verb[-2:-1] not in "aeiou":
        return verb[:-1] + "ies"
    if verb.endswith(("s", "sh", "ch", "x", "z", "o")):
        return verb + "es"
    return verb + "s"


def _line_text(sentences: Sequence[Sentence], terms: Sequence[str]) -> str:
    # The first sentence without a lead pointing at sentences the line does not show ("To resolve this issue, ")
    texts = [without_back_lead(s.text, terms) if i == 0 else s.text for i, s in enumerate(sentences)]
    text = " ".join(texts)
    return trim(text, terms) if len(sentences) == 1 else text


def _cited(n: int, hit: Hit, sentences: Sequence[Sentence]) -> Citation:
    chosen = sorted({s.start: s for s in sentences}.values(), key=lambda s: s.start)
    return citation(n, hit, [s.text for s in chosen], [(s.start, s.end) for s in chosen])


def _focus(hits: Sequence[Hit]) -> list[dict[str, str]]:
    return [{"paper_id": h.paper_id, "title": h.title} for h in hits]


_PHRASE_BREAKS = {"do", "does", "did", "is", "are", "was", "were", "they", "it", "them", "which", "what", "how"}


def _asked_phrase(question: str, terms: Sequence[str]) -> str:
    """The question's own words for what it asks ("a draft model", "save memory"), to say that an
    abstract lacks them: from the first asked word to the last when that is short, else the first."""
    tokens = re.findall(r"[\w-]+", question)
    hits = [i for i, t in enumerate(tokens) if set(words(t)) & set(terms)]
    for width in (2, 3):
        if hits:
            break
        # "language models" is one asked term ("llm") that neither word is alone
        found = [i for i in range(len(tokens)) if set(words(" ".join(tokens[i : i + width]))) & set(terms)]
        if found:
            return " ".join(tokens[found[0] : found[0] + width])
    if not hits:
        return ""
    # "... end with the model always picking the 'simplest' solution": not "does not mention “model”",
    # a word every abstract holds, when the question asks in its own words after it
    while len(hits) > 1 and set(words(tokens[hits[0]])) <= _HEAD_ONLY:
        hits = hits[1:]
    first, last = hits[0], hits[-1]
    span = tokens[first : last + 1]
    # A broad head word takes one more: "data living on a manifold", not "data" (which every abstract says).
    longest = 4 if set(words(tokens[first])) <= GENERIC else 3
    # "evaluated on the iPhone", not "data do they test": the span may not run through the question's frame.
    if last - first <= longest and not {t.lower() for t in span} & _PHRASE_BREAKS:
        return " ".join(span)
    # "monte carlo tree search for planning", "parameterize things with input convex NNs": a run of asked
    # words said together is the name asked for, not "does not mention “monte”" or "“parameterize”" (c626.4,
    # c596.2): the run the first asked word opens, else the first run of three ("what gpus did they run
    # stable diffusion on" asks the gpus)
    runs = [(i, next(j for j in range(i, len(tokens) + 1) if j not in hits) - 1) for i in hits if i - 1 not in hits]
    start, stop = next((r for r in runs if r[0] == first and r[1] > r[0]), None) or next(
        (r for r in runs if r[1] - r[0] >= 2), (first, first)
    )
    if stop > start:
        return " ".join(tokens[start : min(stop, start + 3) + 1])
    end = first + 1 if first + 1 < len(tokens) and set(words(tokens[first + 1])) & GENERIC else first
    return " ".join(tokens[first : end + 1])


# "Which of them ...", "is either ...", "do both ...": the user wants the papers that do, so a paper
# whose abstract does not hold the asked words gets "does not mention", not its nearest sentence.
_SELECTING = re.compile(
    # "which ones test on robot sims or control suites" of five RL papers (c589.2 gave a line of each)
    r"\b(?:which (?:of (?:them|those|these|the (?:two|three|four|papers?))|ones?|paper)|"
    # (not "how do both store the input in memory?": a question of each, c728.2 picked neither)
    r"(?<!how )(?<!what )(?<!why )(?<!where )(?<!when )(?:is|are|does|do) (?:either|one|both|any)|any of (?:them|those)|^\W*(?:and |so )?(?:does|do|is|are) (?:it|they)\b|^\W*(?:and |so )?which (?:is|are|has|have|needs?|uses?)\b)\b",
    re.IGNORECASE,
)


_WHICH = re.compile(r"\bwhich\b", re.IGNORECASE)
_CHOICE_NOUN = re.compile(
    r"\b((?:any|which|each|all|none|either|both|one) of (?:these|those|the))\s+[a-z][\w-]*s\b(?!\s+(?:or|and)\b)",
    re.IGNORECASE,
)
ASKS_GOAL = re.compile(
    r"\bwhat(?:'s|s| is| are) (?:each|it|they|both|the two)(?: one| of (?:them|the two|those|these))? (?:really |actually )?"
    r"(?:optimi[sz]ing|aiming|going|shooting|trying) (?:for|at)\b",
    re.IGNORECASE,
)
# (a doer as the subject of what is asked: "the backdoor defense" is none, c590.3)
_DOER = re.compile(
    r"\b(?:the|that|this) ([a-z][\w-]{2,}(?:er|(?<!o)or))\b"
    r"(?=\s+(?:is|was|were|are|has|had|does|did|do|can|could|would|tested|trained|evaluated|run|ran|used|uses|"
    r"needs?|gets?|works?|performs?|handles?)\b|\s*[?,.!;:]|\s*$)",
    re.IGNORECASE,
)
_POINTER_NAME = re.compile(r"\b(?:the|that|this) (?:[\w-]+ ){0,2}[\w-]+ (?:one|paper)\b", re.IGNORECASE)
_WHICH_OF = re.compile(r"^\W*(?:and |so )?which (?:of (?:them|those|these|the \w+)|one)\b", re.IGNORECASE)


_ABOUT_TOPIC = re.compile(
    r"\b(?:are|is) (?:\w+ )?(?:about|on the topic of)\b|\b(?:deals?|dealing) with\b|"
    # "Which of those concern benchmarking?" (c752.2 said no abstract mentions "concern benchmarking")
    r"\bwhich (?:of (?:them|those|these)|ones?) concerns?\b",
    re.IGNORECASE,
)

# "which of the two *states* convergence guarantees", "which of them *claims* lower complexity": the
# verb of the selection asks for nothing.
_SELECTION_VERB = re.compile(
    # ("does it handle constraints?": of the one paper in focus too; c646.2 said "does not mention “handle constraints”")
    r"(?:which (?:of (?:them|those|these|the \w+)(?: two| three| four)?|one|paper)|(?:is|are|does|do) (?:either|one|both|any|it|they)) "
    # "which one *looks at* randomized trials ...": a verb saying what a paper is about asks nothing either
    r"(?:of them )?(states?|claims?|reports?|mentions?|says?|shows?|looks? at|focus(?:es)? on|deals? with|"
    r"works? on|stud(?:y|ies)|covers?|considers?|tackles?|address(?:es)?|handles?|concerns?|"
    # "which one *learns* causal structure": what it learns is asked, not a fact about its training
    r"learns?|"
    # "which of them *matter for* how we design ml benchmarks", "which of them *bring in* game theory"
    # (c452.2 said no abstract mentions "matter")
    r"matters? (?:for|to)|(?:is|are) relevant (?:for|to)|bring(?:s)? in|draws? on|"
    # "which one *fits* a single model" (c454.2 said no abstract mentions "fits")
    r"fits?|builds?|trains?)\b",
    re.IGNORECASE,
)


def _without_selection_verb(text: str) -> str:
    """``text`` less the verb of its selection ("which one learns causal structure" -> "which one
    causal structure"): each part of a two-part selection has its own."""
    verb = _SELECTION_VERB.search(text)
    return text[: verb.start(1)] + text[verb.end(1) :] if verb else text


def _alternatives_asked(
    question: str, looked_up: Sequence[str], hits: Sequence[Hit]
) -> list[tuple[list[str], list[Facet]]]:
    """The alternatives a selecting question asks ("a draft model", "extra training"): each with
    its looked-up words, rarest first among the papers in focus, and the kinds of fact it asks;
    alternatives that ask nothing are left out."""
    verb = _SELECTION_VERB.search(question)
    skipped = set(words(verb.group(1))) if verb else set()
    papers = [set(words(_STOCK_PHRASE.sub(" ", f"{h.title} {h.abstract}"))) for h in hits]
    out = []
    for piece in map(_without_selection_verb, ALTERNATIVE_BREAK.split(question)):
        terms = [t for t in focal_terms(piece) if t in looked_up and t not in skipped]
        held_by = {t: sum(holds(p, t) for p in papers) for t in terms}
        # A two-word alternative keeps a word no paper in focus holds, so it is never met by the other
        # word alone ("fluid simulation": a simulator is not one); a longer one leaves such words out.
        kept = terms if len(terms) <= 2 else [t for t in terms if held_by[t]]
        terms = sorted(kept, key=held_by.__getitem__)
        facets = [] if _ABOUT_TOPIC.search(question) else asked_facets(piece)
        if terms or facets:
            out.append((terms, facets))
    return out


# "To the best of our knowledge, however, this ... framework lacks convincing theoretical explanations"
# holds no knowledge that "do both keep old knowledge via distillation?" asks about
_STOCK_PHRASE = re.compile(r"\bto the best of (?:our|my) knowledge\b", re.IGNORECASE)


# A capitalised word after a lower-case one, inside a sentence: a person's or a thing's name
_PROPER_NAME = re.compile(r"(?<=[a-z,;] )[A-Z][a-z]{2,}(?=['’]s\b)")


def _holds_an_alternative(
    text: str,
    alternatives: Sequence[tuple[list[str], list[Facet]]],
    fields: Sequence[str],
    named: frozenset[str] = frozenset(),
) -> bool | None:
    """Does ``text`` say one asked alternative: its rarest word and half of its words, and the
    kind of fact it asks? "Training and inference processes" holds "training" but not "extra
    training". A thing the question names (``named``: "evaluated on the iPhone") stated in the
    text says the kind of fact too ("reductions in latency on the iPhone 12"). None when no
    alternative has words of its own (the facets decide then)."""
    if not any(terms for terms, _ in alternatives):
        return None
    present = set(words(_STOCK_PHRASE.sub(" ", text)))
    field_words = [set(words(f)) for f in fields]
    # "which of those has atari results?": "... on the Atari-100k benchmark" names the asked thing, as a
    # name the question writes would ("the iPhone"); a result on it is the kind of fact asked
    named = named | {w for n in named_terms(text) for w in words(n)}
    # "which one uses arrows impossibility theorem": a proper name inside a sentence ("We apply Arrow's
    # impossibility theorem") is named there, however the question types it (c724.3 took the name's
    # theorem for no theory stated and picked no paper)
    named = named | {w for n in _PROPER_NAME.findall(text) for w in words(n)}
    for terms, facets in alternatives:
        # "game theory or social choice": the field named in one alternative is not asked of the other
        # (c461.2 said the social-choice benchmark paper does not mention "social choice")
        needed = [f for f in field_words if f & set(terms)] if len(alternatives) > 1 else field_words
        if not all(f <= present for f in needed):
            continue
        if terms and (not holds(present, terms[0]) or 2 * sum(holds(present, t) for t in terms) < len(terms)):
            continue
        # "convergence guarantees": "enhance stability and convergence" holds the word but no guarantee;
        # the kind of fact must be stated by a word other than the asked one.
        if (
            facets
            and not any(t in named and holds(present, t) for t in terms)
            and not any(f.states.search(_without_asked(text, terms, f)) for f in facets)
            # "experiments on real benchmarks": words that are all the facet's own, every one held, say
            # it ("Through extensive experiments on seven cardinal benchmarks"; c512.3 took "We apply
            # Arrow's impossibility theorem to ordinal benchmarks" for them)
            and not (len(terms) >= 2 and any(set(terms) <= f.words for f in facets) and set(terms) <= present)
        ):
            continue
        return True
    return False


# "Which datasets / benchmarks / environments": the answer is their names.
_ASKS_FIGURES = re.compile(
    r"\b(?:any |the |what |exact |actual )?(?:numbers|figures)\b|\bquantitative\b", re.IGNORECASE
)
_ASKS_NAMES = re.compile(
    # "what data did they evaluate on?" asks for the data by name, as "which datasets" does
    rf"\b(?:which|what)\b(?:\s+[\w-]+){{0,2}}\s+(?:datasets?|benchmarks?|environments?|data)\b|\b{ASKS_MODEL_KIND}\b",
    re.IGNORECASE,
)


# "Theoretical analysis demonstrates our method, FedPIN, ...": the name the paper gives its own method
_OWN_NAME = re.compile(
    r"\b(?:our (?:method|approach|framework|model|algorithm|system)s?,?|called|dubbed|named|termed)\s+([A-Z][\w-]*)"
)


_AMOUNT = re.compile(r"\d[\d.,]*(?:x|×|[kmb]|%)?", re.IGNORECASE)  # "20x", "410M", "1.8x": sizes and factors


def _names_something(text: str, hit: Hit) -> bool:
    """Does ``text`` name a dataset, benchmark or model: a capitalised or digit-bearing word past the
    sentence's first, other than the paper's own name ("QuALITY", "Atari-100k", "GLUE")?"""
    # "effective learning rates (ELRs)": an acronym the abstract defines is its own concept, no dataset.
    defined = " ".join(re.findall(r"\(([A-Z][A-Za-z]{1,9})\)", hit.abstract) + _OWN_NAME.findall(hit.abstract))
    own = set(words(f"{hit.title} {short_name(hit)} {defined}"))
    for sentence in split_sentences(text):
        # "... on 4 real-world tasks in wildlife identification (iWildCam-WILDS)": a name in brackets
        # is a name (c536.2 said the abstract does not name the datasets after quoting them)
        for token in re.findall(r"(?<=[\s(\[“])[\w-]*(?:[A-Z][\w-]*|\d[\w-]*[A-Za-z][\w-]*)", " " + sentence.text)[1:]:
            if (
                (token[:1].isupper() or any(c.isdigit() for c in token))
                and not _AMOUNT.fullmatch(token)  # "up to 20x", "410M parameters": amounts, no names
                and not set(words(token)) <= own
                and token.casefold() not in GENERIC_NAMES
            ):
                return True
    return False


def _compounds_kept(text: str, question: str) -> bool:
    """Does ``text`` hold each hyphenated compound of the question whole ("training-free", not the
    "Free" of "No Free Prune")?"""
    for compound in re.findall(r"\b\w+(?:-\w+)+\b", question):
        spaced = r"[-\s]?".join(re.escape(part) for part in compound.split("-"))
        if not re.search(spaced, text, re.IGNORECASE):
            return False
    return True


def _named_stems(question: str) -> frozenset[str]:
    """The stems of the things a question names: "iPhone", "Atari", "MT-Bench" (a capital past the
    question's first word, or inside a word)."""
    named = _NAMED_THING.findall(question) + re.findall(r"(?<=\s)[A-Z][\w-]+", question)
    return frozenset(words(" ".join(named)))


_BOTH = re.compile(r"\b\w+s? and \w+s?\b", re.IGNORECASE)
# "which gpus", "what gpu model", "what kind of hardware": a device asked for by name
_ASKS_DEVICE_NAME = re.compile(
    r"\b(?:which|what)\b(?:\s+[\w-]+){0,2}?\s+(?:gpus?|tpus?|cpus?|hardware|chips?|accelerators?|devices?|phones?)\b",
    re.IGNORECASE,
)
# A device's model as abstracts write it: "the iPhone 12", "8 A100 GPUs", "TPU v4", "RTX 3090"
_DEVICE_MODEL = re.compile(
    r"\b(?:[AHVTPL]\d{2,3}|A\d{4}|RTX\s?\d{4}|GTX\s?\d{3,4}|iPhone\s*\d+|Pixel\s*\d+|TPU\s?v\d|Jetson\s\w+|"
    r"Snapdragon\s*\d*|Raspberry Pi|Apple M\d)\b"
)


def _device_asked(question: str) -> str:
    """The device as the question calls it: "GPU" of "which gpus", "hardware" otherwise."""
    word = re.search(r"\b(gpu|tpu|cpu|phone|chip|accelerator)s?\b", question, re.IGNORECASE)
    if word is None:
        return "hardware"
    said = word.group(1).lower()
    return said.upper() if said in ("gpu", "tpu", "cpu") else said


def _facet_noun(facet: Facet, question: str) -> str:
    """What the asked kind of fact is called in a line saying the abstract does not name it: "what environments
    do they use?" asks for environments, not "datasets or benchmarks" (c020.2)."""
    if facet.name == "evaluation" and _ASKS_ENVIRONMENTS.search(question):
        return "environments"
    return _FACET_NOUNS[facet.name]


_ASKS_ENVIRONMENTS = re.compile(r"\b(?:envs?|environments?)\b", re.IGNORECASE)
_FACET_NOUNS = {"models": "models", "evaluation": "datasets or benchmarks", "applications": "applications"}
_KINDS = {
    "evaluation": " The abstract mentions no experiments.",
    "theory": " The abstract states no theoretical result.",
}
_RAN_EXPERIMENTS = re.compile(
    # "the equilibrium behavior of experimentation under competition" is the subject, not an experiment run
    r"\b(?:experiment(?!ation|er)\w*|empirical\w*|simulations?|numerical (?:results|studies)|illustrat\w+|validat\w+|"
    r"datasets?|we (?:\w+ )?(?:test|evaluate|benchmark|train)\w*|(?:is|are) (?:tested|evaluated)|"
    # "Our method shows great improvement on standard benchmarks"
    r"(?:on|across) (?:standard|several|multiple|various|common|popular|public|real) benchmarks|state-of-the-art)\b",
    re.IGNORECASE,
)
# "experiments or pure theory", "which one's more theory and which has experiments", "experiments vs purely
# theoretical": which kind each paper is (c431.2 and c438.2, without "or", selected on the words)
_OR = re.compile(r"\b(?:or|vs\.?|versus)\b|\bwhich\b[^?]*\band which\b", re.IGNORECASE)
_IN_PRACTICE = re.compile(r"\bpractical\b|\bin practice\b", re.IGNORECASE)
# "which ones look purely theoretical with no experiments mentioned?": which kind each paper is, too;
# selecting on the theory named the benchmarks paper (Arrow's theorem) though it runs experiments
_THEORY_ALONE = re.compile(
    r"\b(?:pure(?:ly)?|only|just) theor\w*|\b(?:no|without|w/o|without any) experiments?\b", re.IGNORECASE
)


def _hardware_alone(facets: Sequence[Facet]) -> bool:
    """Is the hardware all that is asked ("what gpus did they run stable diffusion on")? Then a sentence
    holding the question's other words, or what the paper does, does not answer it (c481.4)."""
    return [f.name for f in facets] == ["hardware"]


# "does it evaluate its model on real data?", "did they test it on anything real?", "any experiments?": whether
# it was tried out, asked yes or no
_ASKS_IF_TESTED = re.compile(
    r"^\W*(?:(?:and|so|ok|okay|but)\W+)?(?:(?:for|regarding|about) [^,?]{1,60}[,:]\s*)?(?:does|do|did|is|are|was|were|has|have)\b"
    r"|\bany (?:experiments?|empirical|evaluations?|real data)\b",
    re.IGNORECASE,
)


# ... of its being tried out, not of benchmarks as a subject ("do both say something about how ML benchmarks
# should be built?" asks what Don't Label Twice says of them)
_ASKS_TRIED = re.compile(
    r"\b(?:evaluat\w*|test(?:s|ed|ing)?|experiments?|experimental\w*|empirical\w*|validat\w*|tried|real data)\b",
    re.IGNORECASE,
)


# Words of "evaluate on real experimental data", "any real datasets": data of any kind, naming none
_ANY_DATA = set(words("any real experimental data dataset datasets world benchmark benchmarks actual some"))


def _runs_experiments(abstract: str) -> bool:
    """Does the abstract, outside its scene-setting, say it ran experiments ("Many applications of RCTs
    involve ... field experiments" runs none)?"""
    return any(
        (_RAN_EXPERIMENTS.search(s.text) or _TRIED_OUT.search(s.text)) and not _BACKGROUND.search(s.text)
        for s in split_sentences(abstract)
    )


# Results of a method tried out, said without the word "experiment": "speed up ... by up to 1.8x on MT-bench",
# "competitive performance in a range of computer vision tasks", "better policies than competitive baselines"
_TRIED_OUT = re.compile(
    r"\d(?:\.\d+)?\s*(?:x\b|×|%)|\\times|\boutperform\w*|\bbaselines?\b|\bperformance\b|\btasks?\b|\blatency\b|"
    r"\b[\w-]+-bench\b|\bstate[- ]of[- ]the[- ]art\b|\b(?:on|across) (?:the )?[\w-]+ benchmarks?\b",
    re.IGNORECASE,
)


_ASKS_EXPERIMENTS = re.compile(r"\bexperiment(?:s|al)?\b|\bempirical\w*", re.IGNORECASE)
_ILLUSTRATES = re.compile(r"\billustrat\w*", re.IGNORECASE)


def _only_illustrates(said: str, evaluation: Facet) -> bool:
    """Does ``said`` state an evaluation only by illustrating ("We illustrate possible applications")?"""
    cues = [m.group(0) for m in evaluation.states.finditer(said)]
    return bool(cues) and all(_ILLUSTRATES.search(c) for c in cues)


def _each_asked_facet(hit: Hit, found: list[Sentence], facets: Sequence[Facet]) -> tuple[list[Sentence], list[Facet]]:
    """``found`` with a sentence for each asked facet it does not state, in abstract order, and the
    facets no sentence of the abstract states (the line says so)."""
    unsaid = []
    for facet in facets:
        # what earlier work did ("Recent works have provided empirical ... evidence") states no facet
        # of this paper
        said = " ".join(s.text for s in found if facet.background_ok or not _BACKGROUND.search(s.text))
        if facet.states.search(said):
            continue
        more = stating(hit.abstract, [facet], [], _skipped(hit.abstract, False))
        if more is None or (
            # "Recent works have provided empirical and theoretical evidence ...": what earlier work
            # did says nothing of this paper's experiments
            not facet.background_ok and all(_BACKGROUND.search(s.text) for s in more.sentences)
        ):
            unsaid.append(facet)
            continue
        found = sorted({s.start: s for s in [*found, *more.sentences]}.values(), key=lambda s: s.start)
    return found, unsaid


def _without_asked(text: str, terms: Sequence[str], facet: Facet) -> str:
    """``text`` less the asked words that are themselves cues of ``facet`` ("convergence" of
    "convergence guarantees"), so the facet must be stated by another word."""
    return " ".join(
        w
        for w in re.findall(r"[\w']+", text)
        if not (facet.states.search(w) and any(holds(set(words(w)), t) for t in terms))
    )


def _names_fields(text: str, fields: Sequence[str]) -> bool:
    """Does ``text`` name every field asked ("game theory"), word for word? "We prove ..." is
    theory, but not game theory."""
    present = set(words(text))
    return all(set(words(f)) <= present for f in fields)


def _holds(text: str, terms: Sequence[str]) -> bool:
    """Does ``text`` hold one of ``terms``, a paraphrase or another form of it?"""
    present = set(words(text))
    return any(holds(present, t) for t in terms)


# The names of whole fields, which a title may hold without saying anything asked of the paper
_FIELD_NAMES = set(words("rl llm ml ai nlp"))


# "is it a generative model too?", "is that one also an RL method?": whether the paper is of a kind
_IS_IT_A_KIND = re.compile(
    r"(?:^|[-–—:,;]\s*|\?\s*)(?:(?:and|so|but)\s+)?(?:is|isn't) (?:it|this|that|this one|that one) (?:also |too |even )?"
    r"an? [\w\s-]{2,40}?(?:\s+(?:too|as well|also|then))?\W*$",
    re.IGNORECASE,
)


def _mentioning(hit: Hit, terms: Sequence[str], skip: Sequence[str]) -> list[Sentence]:
    """The sentence holding most of ``terms``, background or not: better than a false "does not
    mention" when the abstract says it only while setting the scene."""
    sentences = [s for s in split_sentences(hit.abstract) if s.text not in skip]
    # Most asked words first; then a contribution sentence over a scene-setting one, then the earliest.
    present = [set(words(s.text)) for s in sentences]
    # Setting the scene, a sentence counts only with the asked word itself: "the existing framework
    # ... requires" is what earlier work needs, not what the paper "assumes".
    scene = [sets_scene(sentences, i) for i in range(len(sentences))]
    scored = [
        (
            sum(t in p or same_root(t, p) if scene[i] else holds(p, t) for t in terms),
            bool(METHOD_CUE.search(s.text)),
            not _BACKGROUND.search(s.text) and i > 0,
            -i,
            s,
        )
        for i, (s, p) in enumerate(zip(sentences, present))
    ]
    best = max(scored, default=(0, False, False, 0, None), key=lambda x: x[:4])
    return with_antecedent([best[4]], sentences) if best[0] and best[4] is not None else []


def _renumbered(
    order: Sequence[int], lines: list[str], citations: list[Citation], hits: Sequence[Hit]
) -> tuple[list[str], list[Citation], list[Hit]]:
    """Lines, citations and papers put in ``order``, their [n] markers numbered anew."""
    out_lines, out_citations = [], []
    for new, old in enumerate(order, 1):
        out_lines.append(lines[old].replace(f"[{old + 1}]", f"[{new}]", 1))
        out_citations.append(replace(citations[old], n=new))
    return out_lines, out_citations, [hits[i] for i in order]


_SUMMARIZE = re.compile(
    r"^\W*(?:(?:and|so|now|ok|then)\s+)?(?:please\s+)?(?:can you\s+)?(?:summari[sz]e|recap|"
    r"give me (?:a )?summar(?:y|ies) of)\b",
    re.IGNORECASE,
)


def per_paper(
    question: str,
    hits: Sequence[Hit],
    base: dict[str, Any],
    need_number: bool = False,
    pointers_ok: bool = False,
    closeness: Callable[[str], float] | None = None,
) -> Answer:
    """One line per paper in focus: the sentence that answers the asked attribute, or that the
    abstract does not say. A selecting question ("which of them needs ...") keeps the papers that
    do in focus. ``closeness`` (of a sentence to the question) decides between sentences the rules
    score alike."""
    if len(hits) >= 2:
        # "do either of those, or FedPIN, deal with data spread across clients?": the name a paper in
        # focus goes by says which paper, not what to look for in the others ("MT-bench" is asked).
        for name in named_terms(question):
            if name.casefold() not in GENERIC_NAMES and any(is_named_by(h, name) for h in hits):
                question = re.sub(rf",?\s*(?:or |and )?{re.escape(name)}\b,?", " ", question).strip()
    # "does any of these agents use monte carlo tree search?": the noun the papers in focus go by points
    # at them; it is nothing to look for (c626.4 picked LEO, whose title says "Agent")
    question = _CHOICE_NOUN.sub(r"\1", question)
    # "for the Brenier one, how do they parameterize ...?": the words pointing at the paper ask nothing of it
    for pointer in _POINTER_NAME.findall(question):
        if any(is_named_by(h, pointer) for h in hits):
            question = question.replace(pointer, " ")
    # "what tasks was the explainer tested on" of FDTempExplainer: the doer its name holds points at it
    # (its "XAI" asked picked the sentence introducing the method, c739.3)
    for doer in _DOER.finditer(question):
        if any(doer.group(1).casefold() in f"{short_name(h)} {h.title}".casefold() for h in hits):
            question = question.replace(doer.group(), " ")
    # "what is each optimizing for": what each sets out to do, which its contribution sentence says (the
    # "optimal schedule" of DARL's noise was the closest to "optimizing", c740.4)
    question = ASKS_GOAL.sub("what does each do", question)
    # "Regarding the Granger causality paper: what shortcomings ...?" less its pointer: the empty preface
    # would ask about "" (c553.3 answered with the method sentence in the conversation)
    question = _EMPTY_PREFACE.sub("", question) or question
    question = spelled_out(question, hits)
    if _SELECTING.search(question):
        # "which of those are about science rather than vision or RL?": what is set aside is not asked
        question = SET_ASIDE.sub("", question).strip() or question
    with weighing_closeness(closeness):
        return _per_paper(asked_part(question), hits, base, need_number, pointers_ok)


# Kinds of fact whose cue answers whatever else the question says: "does squeezing everything into codes
# wreck performance?" is answered by "only modest degradation in performance", which holds no "codes"
# (c583.4 got the sentences on codes)
_DECISIVE = frozenset({"degradation"})
_EMPTY_PREFACE = re.compile(r"^\W*(?:regarding|about|concerning|as for|as to|re)\s*[:,;–—-]\s*", re.IGNORECASE)
_ACRONYM = re.compile(r"\b([A-Z]{2,5})s?\b")


def spelled_out(question: str, hits: Sequence[Hit]) -> str:
    """The question with an acronym the papers never write replaced by the words it stands for, as
    one of them writes them: "how central is VI to each of them?" of papers that say "variational
    inference" (else "the abstract does not mention “VI”", though both speak of it)."""
    texts = [f"{h.title}. {h.abstract}" for h in hits]
    for match in _ACRONYM.finditer(question):
        acronym = match.group(1)
        if any(re.search(rf"\b{acronym}s?\b", t) for t in texts):
            continue  # the papers use it: it is looked for as written
        initials = r"[\s-]+".join(rf"{letter}[a-z]{{2,}}" for letter in acronym.lower())
        pattern = re.compile(rf"\b{initials}\b", re.IGNORECASE)
        found = next(
            (m.group() for t in texts for m in pattern.finditer(t) if len(tokenize(m.group())) == len(acronym)), None
        )
        if found and words(found) != words(acronym):  # "reinforcement learning" is read as "RL" already
            question = question.replace(match.group(), found.lower(), 1)
    return question


# "JRNGC and the change point paper both handle time series. How are they different?", "Three papers
# claim to drop restrictive requirements: X, Y and Z. What does each get rid of?": the sentences
# before the question say what the papers share and which they are; the question says what to answer.
_PREMISE = re.compile(r"^[^.?!]*\bboth\b[^.?!]*[.!]\s+(?=\S)", re.IGNORECASE)
_LAST_ASKS_EACH = re.compile(
    r"(?<=[.!])\s+((?:[^.?!]|\.(?=\w))*\b(?:each|both|either|they|them|their|these|those|the (?:two|three))\b"
    r"(?:[^.?!]|\.(?=\w))*\?)\s*$",
    re.IGNORECASE,
)


_QUOTED = re.compile(r"['‘“\"]([^'’”\"]{3,40})['’”\"]")
_MEANS_IT = re.compile(r"\bwhat does (?:it|that|this) mean\b", re.IGNORECASE)


# "is it only theory on random features or do they look at transformers too": what it is known to do
# is the premise; the asked part is what it may do besides (c536.3 got the random-feature sentence)
_ONLY_OR_ALSO = re.compile(
    r"\b(?:is (?:it|this|that)|are (?:they|these|those)|does (?:it|this|that)|do (?:they|these|those)) "
    r"(?:\w+ )?(?:only|just|purely|solely|all) [^?]{2,80}? or (?=(?:do|does|did|are|is|was|were|have|has) "
    r"(?:they|it|there|the authors) [^?]*\b(?:too|also|as well|either)\b)",
    re.IGNORECASE,
)


# "..., and on what datasets?": a fact asked of the paper a selection picks; ", and which one learns causal
# structure?" is a second selection instead
_ASKED_AFTER_AND = re.compile(
    r"[,;]\s*(?:and|&)\s+(?:on |in |with |for |by )?(?:what|which|how)\b"
    r"(?! (?:one|ones|of|papers?|is|are|has|have|needs?|uses?|does|do)\b)",
    re.IGNORECASE,
)


def asked_part(question: str) -> str:
    """``question`` without a leading premise on what the papers share or which they are."""
    question = _ONLY_OR_ALSO.sub("", question)
    last = _LAST_ASKS_EACH.search(question)
    if last and len(last.group(1).split()) >= 2:
        quoted = _QUOTED.search(question[: last.start(1)])
        if quoted and _MEANS_IT.search(last.group(1)):
            # "two papers use 'diversity' - ... what does it mean in each?": "it" is the quoted word
            return _MEANS_IT.sub(f"what does {quoted.group(1)} mean", last.group(1), count=1)
        return last.group(1)
    found = _PREMISE.match(question)
    rest = question[found.end() :] if found else ""
    return rest if len(rest.split()) >= 2 else question


def _per_paper(
    question: str, hits: Sequence[Hit], base: dict[str, Any], need_number: bool, pointers_ok: bool
) -> Answer:
    terms = focal_terms(question)
    telling = [t for t in terms if t not in _ASKABLE]
    # "which of those are about benchmarking or model evaluation?": the words name a topic to hold,
    # not a kind of fact that any "experiments" sentence states.
    about = bool(_ABOUT_TOPIC.search(question))
    facets = [] if need_number or about else asked_facets(question)
    if need_number and not about:
        # "how big were the models they tried": a size, stated as one ("up to 410M parameters")
        facets = [f for f in asked_facets(question) if f.name == "scale"]
    looked_up = [t for t in telling if t not in facet_words(facets)]
    # An amount of gain asked ("how much faster", "how much do they save") that an abstract states
    # without a figure: "how big are the datasets it collected?" is not answered by a sentence on
    # its simulation tasks.
    gains = [f for f in asked_facets(question) if f.name in ("savings", "findings")] if need_number else []
    verb = _SELECTION_VERB.search(question)  # "which of them *claims* lower model complexity"
    phrase = _asked_phrase(question[: verb.start(1)] + question[verb.end(1) :] if verb else question, terms)
    # One paper in focus is selected too: "which one has a convergence guarantee?" of a privacy paper
    # is answered by whether it states one, not by its nearest sentence.
    selecting = bool(_SELECTING.search(question)) and bool(looked_up or facets)
    # "which one uses pretraining plus targeted augmentations, and on what datasets?": the paper is
    # picked by what it uses; the facet asked after ", and" is asked of it (c536.2 kept FedPIN for
    # its experiments)
    after_and = _ASKED_AFTER_AND.search(question)
    asked_after = selecting and bool(looked_up) and bool(facets) and after_and is not None
    if need_number and BIGGER_GAIN.search(question):
        # "which one claims the bigger speedup": each paper's figures, for the asker to set side by side
        # (the speedups of different tasks are no one measure to pick by)
        selecting = False
    if len(hits) == 1 and need_number and _WHICH_OF.match(question):
        # "by how much?" after "which of them is about making models lighter?" picked Mobile Attention:
        # the amount asked of the one paper picked, "which of them" selects nothing any more
        selecting = False
    fields = named_fields(question)
    # "what gpus did they run stable diffusion on" asks the hardware alone: the sentence on Stable
    # Diffusion, or the one on what the paper does, says nothing of it (c481.4)
    hardware_only = _hardware_alone(facets)
    # "what gpu model did the lookahead people run on": the kind of device said ("multiple GPUs") is not
    # the model asked for; an abstract naming none says so (c493.3 gave three sentences and no such word)
    device_unnamed = any(f.name == "hardware" for f in facets) and _ASKS_DEVICE_NAME.search(question) is not None
    # "which models and benchmarks did it use?": two kinds of fact asked together, each answered.
    both = [f for f in facets if f.name in _FACET_NOUNS] if _BOTH.search(question) and len(facets) > 1 else []
    # "do both run experiments or is one of them pure theory?": which kind each paper is, so each
    # line shows its experiments and its theory (one sentence stating either answered half).
    # A benchmark named in a theorem ("Arrow's theorem to ordinal benchmarks") is no experiment here.
    if (
        [f.name for f in facets] == ["theory"]
        and _OR.search(question)
        and _IN_PRACTICE.search(question)
        and not need_number
    ):
        # "do either of them give a practical method or is it all theory": theory or practice, which kind
        # each paper is (c529.2 said nothing of the theory-only paper having no method tried out)
        facets = [*facets, *(f for f in FACETS if f.name == "evaluation")]
    kinds = (
        [replace(f, states=_RAN_EXPERIMENTS) if f.name == "evaluation" else f for f in facets if f.name in _KINDS]
        if {f.name for f in facets} >= set(_KINDS) and (_OR.search(question) or _THEORY_ALONE.search(question))
        else []
    )
    # "which one's more theory and which has experiments": each kind, whatever else "and" joins
    both = kinds or both
    if selecting and facets and facets[0].name == "evaluation" and _ASKS_EXPERIMENTS.search(question):
        # "which one has experiments?": experiments run, not "the design of machine learning benchmarks"
        # that Don't Label Twice discusses (it was picked beside the paper running eighteen, c448.3)
        facets = [replace(facets[0], states=_RAN_EXPERIMENTS), *facets[1:]]
    if kinds and len(hits) > 1:
        # "do both come with theory or is it mostly experiments?": which kind each is, none selected
        selecting = False
    # "what does it say about EWoK?" names the paper; "about sharpness" names what to speak of.
    demanded, tested_on = _demanded(question)
    own_names = {w for h in hits for w in _name_words(h)}
    demanded = [a - own_names for a in demanded if a - own_names]
    if tested_on:
        # "did it test on atari?" of an abstract without Atari: it "does not mention “atari”"
        phrase = "” or “".join(tested_on)
    picked_by = question[: after_and.start()] if asked_after and after_and is not None else question
    alternatives = _alternatives_asked(picked_by, looked_up, hits) if selecting else []
    named = _named_stems(question)
    # The kind of named thing asked: "which datasets" (evaluation), "which LLM" (models).
    naming = [f for f in facets if f.name in ("evaluation", "models")]
    asks_names = bool(_ASKS_NAMES.search(question)) and bool(naming)
    asks_figures = bool(_ASKS_FIGURES.search(question))
    if len(alternatives) > 1 and any(t for t, _ in alternatives):
        # "does not mention “draft model” or “extra training”": each alternative in the user's words.
        pieces = [
            p
            for p in map(_without_selection_verb, ALTERNATIVE_BREAK.split(question))
            if any(t in looked_up for t in focal_terms(p)) or asked_facets(p)
        ]
        phrase = "” or “".join(filter(None, (_asked_phrase(p, focal_terms(p)) for p in pieces))) or phrase
        # "which handles non-Euclidean data, and which one learns causal structure?": two selections
        # in one message; a paper's sentence for the whole of it may answer neither part.
        parts = pieces if _WHICH.search(question) and sum(bool(_WHICH.search(p)) for p in pieces) > 1 else []
    else:
        parts = []
    # "Summarize both": each paper's summary, not only the sentence saying what it proposes.
    summarising = bool(_SUMMARIZE.match(question)) and not looked_up and not facets and not need_number
    lines, citations, kept = [], [], []
    missing = f"does not mention “{phrase}”" if phrase else "does not say"
    asks_code = pointers_ok and bool(ASKS_CODE.search(question))
    if asks_code:
        # "does the poisson one release code?", "which has code or data online?" of an abstract with no link
        missing = "gives no link to code" + (" or data" if re.search(r"\bdata\b", question, re.IGNORECASE) else "")
    # "do the other two prove anything?" of JRNGC, whose abstract proves nothing: the line says so, where
    # its method sentence stood in for an answer it does not give.
    only_theory = not selecting and not looked_up and [f.name for f in facets] == ["theory"]
    # "does the competing treatments paper evaluate its model on real experimental data?" of a paper whose
    # abstract runs no experiment: it says none, and what it does report (c592.4 gave its closing sentence)
    tested_asked = not need_number and [f.name for f in facets] == ["evaluation"]
    tested_asked = (
        tested_asked and _ASKS_IF_TESTED.search(question) is not None and _ASKS_TRIED.search(question) is not None
    )
    # "tested on imagenet?" names what to look for: the abstract not mentioning it is the answer
    tested_asked = tested_asked and not any(set(words(t)) - _ANY_DATA for t in tested_on)
    for n, hit in enumerate(hits, 1):
        clean = without_injections(hit)
        if only_theory and stating(clean.abstract, facets, [], _skipped(clean.abstract, pointers_ok)) is None:
            lines.append(f"“{hit.title}” [{n}]: the abstract states no theoretical result.")
            citations.append(_cited(n, hit, []))
            continue
        if tested_asked and not _runs_experiments(clean.abstract):
            theory = [f for f in FACETS if f.name == "theory"]
            proved = stating(clean.abstract, theory, [], _skipped(clean.abstract, pointers_ok))
            reported = proved.sentences if proved is not None else []
            name = short_name(hit) if len(hits) > 1 else f"“{hit.title}”"
            line = f"{name} [{n}]: the abstract mentions no experiments"
            lines.append(line + (f"; its results are theoretical: {_line_text(reported, [])}" if reported else "."))
            citations.append(_cited(n, hit, reported))
            if not selecting:  # "do they ...?" selects the papers that did
                kept.append(hit)
            continue
        # "what do they show about sharpness?" of a paper that never speaks of sharpness: it does not say.
        present = set(words(f"{clean.title} {clean.abstract}")) if demanded else set()
        speaks = not demanded or any(all(holds(present, t) for t in a) for a in demanded)
        if summarising:
            found = summary_sentences(clean)  # what each does, how, and what it finds
        else:
            found = answer_sentences(clean, question, need_number, pointers_ok) if speaks else []
        unmeasured = False
        of_kind = bool(
            len(hits) == 1
            and _IS_IT_A_KIND.search(question)
            and telling
            # as written: "generative" is a paraphrase of the "diffusion" in its title
            and not set(telling) <= set(words(f"{clean.title} {clean.abstract}"))
            and not need_number
        )
        if of_kind:
            # "that diffusion tempering paper - is it a generative model too?" of an abstract never saying
            # "generative": what the paper is answers, not its nearest sentence (c688.3 gave its results)
            doing = what_it_does(clean.abstract, clean.title, _skipped(clean.abstract, pointers_ok))
            found = [doing] if doing is not None else found
        if gains and not found and speaks and not selecting:
            # "How much do they save?" of JRNGC, whose abstract claims "lower model complexity" with no
            # figure: the sentence stating the asked kind of fact, and that no number is given.
            worded = [
                s for s in answer_sentences(clean, question, False, pointers_ok) if not _BACKGROUND.search(s.text)
            ]
            if worded and any(f.states.search(" ".join(s.text for s in worded)) for f in gains):
                # "by how much do they win?" asks in a word no sentence holds; the figures of the
                # sentence stating the gain ("by a factor of 4~14 times") are the amount.
                found, unmeasured = worded, not any(figures(s.text) for s in worded)
        if not found and looked_up and not need_number and speaks and not hardware_only:
            found = _mentioning(clean, looked_up, _skipped(clean.abstract, pointers_ok))
        if not found and not need_number:
            # "could I just wrap my PPO code with it?": "EWoK can be applied on top of any off-the-shelf
            # non-robust RL algorithm" answers, where "does not mention “wrap”" did not
            found = _covering_any(clean, question, _skipped(clean.abstract, pointers_ok))[-1:]
        if parts and not _answers_a_part(found, alternatives, fields, named):
            # each part asked alone: the first whose sentence answers it ("In this paper, we introduce
            # ... change point detection in manifold-valued data streams" for the non-Euclidean part)
            for part in parts:
                alone = answer_sentences(clean, part, need_number, pointers_ok)
                if _answers_a_part(alone, alternatives, fields, named):
                    found = alone
                    break
        if found and not selecting and not parts and not summarising:
            found = _with_second_part(clean, found, question, need_number, pointers_ok)
        if not selecting and not unmeasured and any(numbers(s.text) for s in found):
            found = with_other_gains(clean, found, question)  # "numbers vs MeZO?": every gain in figures
        if not selecting:
            found = with_other_comparisons(clean, found, question)
        if (
            about
            and found
            and looked_up
            and all(_BACKGROUND.search(s.text) or s.start == split_sentences(clean.abstract)[0].start for s in found)
        ):
            # "which of them are about language models?": what the paper does with them ("We introduce
            # MeZO-SVRG ... across multiple LM fine-tuning tasks"), as a list line says it, not the
            # opening sentence on what fine-tuning LMs has achieved.
            contribution = _what_it_does_about(clean, looked_up, _skipped(clean.abstract, pointers_ok))
            if contribution and _holds(" ".join(s.text for s in contribution), looked_up):
                found = contribution
        said = " ".join(s.text for s in found)
        # "Which of them reports benchmark results" selects on the first thing asked; "do both have
        # experiments or is one purely theoretical" is answered by any of them.
        stated = states_first(said, facets) if _WHICH.search(question) else any(f.states.search(said) for f in facets)
        held = _holds_an_alternative(said, alternatives, fields, named)
        if held is None:
            held = (_holds(said, looked_up) and _names_fields(said, fields)) or (stated and not asked_after)
        # "which of them includes experiments on real data?": "Many applications of RCTs involve ...
        # field experiments" sets the scene; it does not pick the paper.
        if selecting and found and all(_BACKGROUND.search(s.text) for s in found):
            held = False
        if selecting and facets and facets[0].name == "evaluation" and _only_illustrates(said, facets[0]):
            # "which one shows experimental results?": "We illustrate possible applications to ..." is
            # what a paper shows of its method (asked openly, it answers), not results it reports.
            held = False
        titled = (
            looked_up
            and _holds(hit.title, looked_up)
            # "which one can be plugged on top of an existing rl algorithm": a title holding the field's
            # name alone ("Reinforcement Learning") says nothing of the rest (c694.2 picked Di-SkilL by it);
            # of two selections in one message, each paper is picked by one ("which one plugs into an
            # existing rl algo and which one changes the policy parameterization", c622.4)
            and (
                not selecting
                or len(hits) == 1
                or bool(parts)
                or _holds(hit.title, [t for t in looked_up if t not in _FIELD_NAMES])
            )
            # "which one employs game theory?": "Information-Theoretic" in FedPIN's title names no game
            # theory (c553.2 picked FedPIN beside the game-theoretic paper)
            and _names_fields(f"{hit.title}. {clean.abstract}", fields)
            and _compounds_kept(hit.title, question)
            and not need_number
            and not hardware_only
        )
        # (a title holding the asked words says what the paper does, in its own sentence, below)
        if (
            selecting
            and not held
            and alternatives
            and (len(hits) == 1 or not titled)
            # "We illustrate possible applications ..." holds "experimentally" but was set aside above
            and not _holds_an_alternative(said, alternatives, fields, named)
        ):
            # "does it need clean data from my own task, or retraining?" of EBBA: its sentence on clean
            # labels holds no asked alternative; the one that does answers ("... without model retraining");
            # "do both keep old knowledge via distillation?": CILA's "adaptive distillation coefficients",
            # not its "To the best of our knowledge"
            holding = [
                x
                for x in split_sentences(clean.abstract)
                if not _BACKGROUND.search(x.text)
                and _holds_an_alternative(x.text, alternatives, fields, named)
                # "which of these two actually measures speed experimentally?": not "We illustrate ..."
                and not (facets and facets[0].name == "evaluation" and _only_illustrates(x.text, facets[0]))
            ]
            if need_number:
                # "... on real benchmarks? how many": the sentence with the count ("seven cardinal
                # benchmarks and eleven ordinal benchmarks"), not Arrow's theorem on them (c512.3)
                holding.sort(key=lambda x: not (numbers(x.text) or _NUMBER_WORD.search(x.text)))
            if holding:
                found, held = holding[:1], True
        if asks_code and found and all(is_pointer(s.text) for s in found):
            held = True  # "do they release code?": the code's address says yes
        if found and (len(hits) == 1 or (not selecting and _ASKS_HOW_AROUND.search(question))):
            # "does it need a separate network per target like older methods?" of JRNGC: what older
            # methods need is the scene; the paper's own answer follows it
            found = _with_remedy(clean, found)
        says = bool(found) and (not selecting or held or of_kind)
        if says and asked_after:
            found = _with_second_part(clean, found, question, need_number, pointers_ok)  # "..., and on what datasets?"
        if (
            not says
            and not titled
            and not need_number
            and not asks_code
            and not hardware_only
            and (not selecting or len(hits) == 1)
            and _holds_every(clean, looked_up)
        ):
            # "do they still train one network per target variable?" of JRNGC, "did they use real
            # data?" of the change point paper: said in other words than asked, by a sentence close
            # in meaning that holds an asked word; better than a false "does not mention". Only where the
            # abstract holds every asked word: "tested on imagenet?" of a paper that never says ImageNet
            # is answered by that, not by its closest sentence (c159.4)
            close = _closest_saying(clean, telling, _skipped(clean.abstract, pointers_ok))
            if close:
                found, says = _with_remedy(clean, close) if len(hits) == 1 else close, True
        label = short_name(hit) if len(hits) > 1 else "“" + hit.title + "”"
        if says:
            found, unsaid = _each_asked_facet(clean, found, both)
            own = [s for s in found if not _BACKGROUND.search(s.text)]
            unnamed: list[Facet] = []
            # (a kind of work unsaid, "states no theoretical result", leaves the names still to say)
            named_unsaid = [f for f in unsaid if f.name in ("evaluation", "models")]
            if asks_names and not named_unsaid and not _names_something(" ".join(s.text for s in own), clean):
                # "which crystal datasets did it use?" of an abstract that names none: say so after
                # what it does say of its experiments ("Our experiments indicate ...").
                evidence = stating(clean.abstract, naming, [], _skipped(clean.abstract, pointers_ok))
                found = evidence.sentences if evidence is not None else own
                # the sentence that states them may name them ("4 real-world tasks in wildlife
                # identification (iWildCam-WILDS)"; c536.2 said after it that none were named)
                if evidence is None or not _names_something(" ".join(s.text for s in evidence.sentences), clean):
                    unnamed = naming
            if kinds:
                found = own or found  # which kind of work each is: its own, not the work before it
                # and only the sentences saying it: JRNGC's line opened with its method sentence (c431.2)
                found = [s for s in found if any(f.states.search(s.text) for f in kinds)] or found
                # "which has experiments - and on what data?": the data unnamed is not "no experiments"
                # (c431.2 said "mentions no experiments" after JRNGC's "Extensive experiments show")
                note = "".join(_KINDS[f.name] for f in unsaid)
                nouns = [_facet_noun(f, question) for f in unnamed]
            else:
                # "which architectures or datasets?" of an abstract naming neither: one sentence says so
                nouns = [_facet_noun(f, question) for f in unsaid + unnamed]
                note = ""
            note += f" The abstract does not name the {', nor the '.join(nouns)}." if nouns else ""
            if device_unnamed and not _DEVICE_MODEL.search(clean.abstract):
                note += f" The abstract does not name the {_device_asked(question)} model."
            # "how close does it get? numbers?": figures asked in so many words, and none in the abstract
            # "how much do they save?" answered by "two ... methods ... with low overhead": a count of
            # methods is no amount, and an abstract without a single figure states none.
            unmeasured = unmeasured or ((asks_figures or bool(gains)) and not figures(clean.abstract))
            note += " The abstract gives no figure for it." if unmeasured else ""
            lines.append(f"{label} [{n}]: {_line_text(found, terms)}{note}")
            kept.append(hit)
        elif titled:
            doing = what_it_does(clean.abstract, clean.title, _skipped(clean.abstract, pointers_ok))
            found = [doing] if doing is not None else []
            if found and asked_after:
                # "which one uses targeted augmentations, and on what datasets?": what it does, then the datasets
                found = _with_second_part(clean, found, question, need_number, pointers_ok)
            lines.append(f"“{hit.title}” [{n}]" + (f": {' '.join(s.text for s in found)}" if found else ""))
            kept.append(hit)
        else:
            found = []
            lines.append(f"“{hit.title}” [{n}]: the abstract {_unsaid(missing, phrase, clean)}.")
        citations.append(_cited(n, hit, found))
    if selecting and kept:
        # "Which of them needs X": the papers that do come first and are marked selected, so "the
        # first one" and "those" next point at lines the user read at the top.
        order = sorted(range(len(hits)), key=lambda i: hits[i] not in kept)
        lines, citations, hits = _renumbered(order, lines, citations, hits)
        silent = [i for i, hit in enumerate(hits) if hit not in kept]
        if len(silent) >= 3 and all(lines[i].endswith(f"the abstract {missing}.") for i in silent):
            # Nine abstracts in focus, one answers: the others in one line, each still cited.
            titles = join([lines[i].split(": the abstract ")[0] for i in silent])
            plural = missing.replace("does not", "do not", 1)
            lines = [line for i, line in enumerate(lines) if i not in silent] + [f"The abstracts of {titles} {plural}."]
    text = ("\n".join(f"- {line}" for line in lines)) if len(lines) > 1 else lines[0] if lines else ""
    focus = [
        entry | ({"selected": True} if selecting and hit in kept else {}) for entry, hit in zip(_focus(hits), hits)
    ]
    return Answer(
        answer=text, refused=False, citations=citations, passages=list(hits), mode="attribute", focus=focus, **base
    )


# How close in meaning (MiniLM cosine) a sentence must be to the question to answer it in other
# words than asked. Over the 105 "does not mention" lines of the tuning answers, the lines judged
# false stood at 0.35-0.51 to their abstract's closest sentence, the true ones mostly below 0.36;
# those above it that were true shared no asked word with that sentence.
SAID_OTHERWISE = 0.35


def _closest_saying(hit: Hit, terms: Sequence[str], skip: Sequence[str]) -> list[Sentence]:
    """The abstract's own sentence (not background) closest in meaning to the question, when it is
    at least SAID_OTHERWISE close and holds one of ``terms``; else none."""
    scored = [
        (closeness_to_question(s.text), s)
        for s in split_sentences(hit.abstract)
        if s.text not in skip and not _BACKGROUND.search(s.text) and _holds(s.text, terms)
    ]
    best = max(scored, default=(0.0, None), key=lambda x: x[0])
    return [best[1]] if best[1] is not None and best[0] >= SAID_OTHERWISE else []


def _holds_every(hit: Hit, terms: Sequence[str]) -> bool:
    """Does the abstract (or title) hold each of ``terms``, in some sentence or other?"""
    present = set(words(f"{hit.title} {hit.abstract}"))
    return all(holds(present, t) for t in terms)


def _unsaid(missing: str, phrase: str, hit: Hit) -> str:
    """What a line says of an abstract that does not answer: that it does not mention the asked
    words, unless it holds every one of them ("does not mention “model”" of two abstracts about
    models was false); then only that it does not say."""
    if not missing.startswith("does not mention"):
        return missing
    text = f"{hit.title} {hit.abstract}"
    present = set(words(text))
    asked = words(phrase)
    held = all(w in present for w in asked) and _compounds_kept(text, phrase)
    return "does not say" if asked and held else missing


# "what device was latency measured on, and the complexity?": two things asked, the second after ", and"
# "..., and the complexity?"; "how much longer context can it handle and what datasets": a second
# question after "and" opens with its question word
_AND_PART = re.compile(
    r",\s*(?:and|plus)\s+(?:also\s+)?|\s+and\s+(?=(?:what|which|how|who|where|is|are|does|do|did|can|any)\b)|"
    # "is it tied to a specific model? what tasks": a short question after the first (c527.3 left the tasks out)
    r"\?\s+(?=(?:and\s+)?(?:what|which)\s+[\w-]+(?:\s+[\w-]+)?\W*$)",
    re.IGNORECASE,
)


def _with_second_part(
    hit: Hit, found: list[Sentence], question: str, need_number: bool, pointers_ok: bool
) -> list[Sentence]:
    """``found`` with the sentence answering the part of a two-part question it leaves out: "what
    device was latency measured on, and the complexity?" of Mobile Attention is answered by the
    iPhone 12 sentence and by the one on its linear complexity."""
    pieces = [p for p in _AND_PART.split(question) if p.strip()]
    if len(pieces) != 2:
        return found
    said = " ".join(s.text for s in found)
    named = _name_words(hit) | _title_run(question, hit.title)
    out = list(found)
    for piece in pieces:
        terms = [t for t in focal_terms(piece) if t not in named]
        # "what datasets" is not answered by "... up to 20x in our experiments": it asks for names
        unnamed = bool(_ASKS_NAMES.search(piece)) and not _names_something(said, hit)
        if not terms or (_holds(said, terms) and not unnamed):
            continue
        # "how much longer context can it handle and what datasets": the datasets are names, no number
        names = bool(_ASKS_NAMES.search(piece)) and not _NUMBER_ASKED.search(piece)
        number = need_number and not names
        extra = [s for s in answer_sentences(hit, piece, number, pointers_ok) if not _BACKGROUND.search(s.text)]
        told = " ".join(s.text for s in extra)
        # names asked may be stated without the asked word ("evaluations ... on QuALITY" for datasets)
        # a bare "what tasks" is answered by the sentence stating its kind of fact ("applications, including
        # anomaly detection, classification, and forecasting"), whatever word it uses
        bare = len(piece.split()) <= 3
        if extra and (
            _holds(told, terms) or ((names or bare) and any(f.states.search(told) for f in asked_facets(piece)))
        ):
            out = sorted({s.start: s for s in [*out, *extra]}.values(), key=lambda s: s.start)
    return out


# "how does the granger one avoid fitting a separate model per variable?", "how do they get around
# that?": asked how the paper escapes what others do, which its abstract states as background.
_ASKS_HOW_AROUND = re.compile(
    r"\bhow (?:do|does|did|can|could|is|are|would)\b.*\b(?:avoid\w*|overcom\w*|get(?:s|ting)? around|"
    r"work(?:s|ing)? around|circumvent\w*|escap\w*|sidestep\w*|get(?:s|ting)? rid of|do(?:es)? away with|"
    r"eliminat\w*|without)\b",
    re.IGNORECASE,
)
REMEDY_REACH = 3  # the remedy follows the limitation within three sentences (JRNGC: the next one)


def _with_remedy(hit: Hit, found: list[Sentence]) -> list[Sentence]:
    """``found`` with the paper's own remedy when ``found`` only states what others do: a limitation
    of existing work ("It requires separate predictive models for each target variable") says what is
    escaped, the contribution after it ("we propose JRNGC, ... a single model") how."""
    sentences = split_sentences(hit.abstract)
    indices = [i for i, s in enumerate(sentences) if any(s.start == f.start for f in found)]
    if not indices or not all(sets_scene(sentences, i) for i in indices):
        return found
    last = max(indices)
    for i in range(last + 1, min(len(sentences), last + 1 + REMEDY_REACH)):
        text = sentences[i].text
        if not sets_scene(sentences, i) and (_PROPOSES.search(text) or METHOD_CUE.search(text) or _WE.search(text)):
            return [*found, sentences[i]]
    return found


def _answers_a_part(
    found: Sequence[Sentence],
    alternatives: Sequence[tuple[list[str], list[Facet]]],
    fields: Sequence[str],
    named: frozenset[str],
) -> bool:
    """Do the sentences answer one part of a selection, and not as background?"""
    said = " ".join(s.text for s in found)
    return (
        bool(found)
        and not all(_BACKGROUND.search(s.text) for s in found)
        and bool(_holds_an_alternative(said, alternatives, fields, named))
    )


# Least rarity-weighted share of a topic's words a listed paper must hold: at 0.7, two papers holding
# "fine-tuning" but not "language models" (0.73 each) were listed for "fine-tuning language models".
ABOUT_SHARE = 0.75
ABOUT_CLOSENESS = 0.12  # least passage similarity of a listed paper: below it the words occur by chance


def about_topic(concept: Topic, hits: Sequence[Hit], rarity: Rarity) -> list[Hit]:
    """The retrieved papers about ``concept``: those holding its telling words (``ABOUT_SHARE`` of
    them, weighted by rarity). Users name topics in their own words, so not every word must occur;
    a paper that holds only its common words ("optimal" of "optimal transport") is not about it."""
    # The subject area is the paper's own label ("Privacy-preserving Statistics and Machine Learning"):
    # a topic it names is the paper's topic even when the abstract never uses the word, and not by chance.
    return [
        h
        for h in hits
        if not _set_aside(concept, h)
        and _of_a_narrowed_kind(concept, h, rarity)
        and (
            (
                coverage(concept, h.title, h.abstract, rarity) >= ABOUT_SHARE
                and h.dense_score >= ABOUT_CLOSENESS
                and not _named_as_a_limitation(concept, h, rarity)
                and not _fast_only_in_training(concept, h)
                and _holds_the_measure_itself(concept, h)
            )
            or _by_area(concept, h, rarity)
        )
    ]


# What experiments are run on: a word of this kind counts for any of its kind in an answer about a paper
# ("what benchmarks?" is answered by its "tasks"), not for the topic of a paper
_MEASURE_STEMS = frozenset(words("benchmark benchmarks dataset datasets metric metrics leaderboard leaderboards"))


def _holds_the_measure_itself(concept: Topic, hit: Hit) -> bool:
    """ "how ML benchmarks and model comparisons are designed": a topic that is only benchmarks (or
    datasets, metrics) is met by a paper that says the word, not by one whose "tasks" or "datasets" the
    paraphrase list counts as benchmarks (the embodied-agent paper was listed for c662.1)."""
    if not concept.required or not set(concept.required) <= _MEASURE_STEMS:
        return True
    return bool(set(concept.required) & set(words(f"{hit.title} {hit.abstract}")))


def _of_a_narrowed_kind(concept: Topic, hit: Hit, rarity: Rarity) -> bool:
    """Is the paper about one of the kinds the asker narrowed the topic to ("LLM decoding or
    diffusion sampling, either")? True when none were named."""
    if not concept.narrowed:
        return True
    present = set(words(f"{hit.title} {hit.abstract}"))
    for kind in concept.narrowed:
        stems = [w for slot in kind for w in slot]
        one = replace(concept, alternatives=[kind], required=stems, phrases=[])
        # its most telling word too: "communication cost in distributed training" is not met by the
        # "training" and "cost" of a backdoor defense
        if coverage(one, hit.title, hit.abstract, rarity) >= ABOUT_SHARE and holds(
            present, max(stems, key=rarity.weight)
        ):
            return True
    return False


def _by_area(concept: Topic, hit: Hit, rarity: Rarity) -> bool:
    """Is the paper about the bare topic by its subject area? "Which papers are about privacy?" lists
    the federated-learning paper filed under "Privacy-preserving Statistics and Machine Learning";
    "privacy, like variants of differential privacy" names what kind is meant, which the label does
    not say (readers judged that paper extra in both answers of that form, c361.1 and c382.1)."""
    return bool(hit.area) and not concept.examples and coverage(concept, hit.area, "", rarity) >= ABOUT_SHARE


# "However, they confront challenges, including high computational demands and limited
# interpretability": what a paper names as a shortcoming of earlier work is not its topic.
_LIMITATION = re.compile(
    r"\b(?:limit\w*|lack\w*|challeng\w*|suffer\w*|fail\w*|however|drawbacks?|hinder\w*|bottleneck)\b", re.IGNORECASE
)


def _named_as_a_limitation(concept: Topic, hit: Hit, rarity: Rarity) -> bool:
    """Does the paper say the topic's most telling word it holds only in sentences before its
    contribution that name a limitation ("... limited interpretability"), and not in its title?"""
    present = set(words(f"{hit.title} {hit.abstract}"))
    held = [
        w
        for slot in concept.alternatives or [[{w} for w in concept.required]]
        for s in slot
        for w in s
        if related(w) & present
    ]
    if not held:
        return False
    rare = max(held, key=rarity.weight)
    if related(rare) & set(words(hit.title)):
        return False
    sentences = split_sentences(hit.abstract)
    own = next(
        (i for i, s in enumerate(sentences) if _PROPOSES.search(s.text) or METHOD_CUE.search(s.text)), len(sentences)
    )
    saying = [i for i, s in enumerate(sentences) if related(rare) & set(words(s.text))]
    return bool(saying) and all(i < own and _LIMITATION.search(sentences[i].text) for i in saying)


def _set_aside(concept: Topic, hit: Hit) -> bool:
    """Is the paper what the asker set aside? "Besides images, what generative modeling work is
    there, e.g. audio, molecules?": an image-generation paper holding none of the examples is."""
    if not concept.aside or not concept.examples:
        return False
    present = set(words(f"{hit.title} {hit.abstract}"))
    return any(holds(present, w) for w in concept.aside) and not any(holds(present, w) for w in concept.examples)


_SPEED = related(tokenize("speed")[0])
# "a training-free parallel sampler that accelerates sampling" is fast at sampling, not at training
_TRAINING = re.compile(r"\b(?:train(?:s|ed|ing)?(?![- ]free)|converge\w*)\b", re.IGNORECASE)


def _fast_only_in_training(concept: Topic, hit: Hit) -> bool:
    """Is the paper fast only at training? One that "demonstrates faster convergence during the
    training process" (EquiCSP) does not speed up inference; unless training is asked, it is not listed."""
    if not _SPEED & set(concept.required) or _TRAINING.search(concept.text):
        return False
    fast = [s for s in [hit.title, *(x.text for x in split_sentences(hit.abstract))] if _SPEED & set(words(s))]
    return bool(fast) and all(_TRAINING.search(s) for s in fast)


# A topic told as a description ("speeding up generation by parallelizing steps that normally run one
# after another": six words) is met in other words by every paper; none holds ABOUT_SHARE of it. The
# papers as close as the closest one, in words and in meaning, answer it together: Lookahead decoding
# holds 0.82 of ParaTAA's share of the words and 0.97 of its closeness, the next paper 0.49 and 0.83.
DESCRIBED_WORDS = 4
DESCRIBED_SHARE = 0.75
DESCRIBED_CLOSENESS = 0.9


def described(concept: Topic, hits: Sequence[Hit], rarity: Rarity) -> list[Hit]:
    """The papers answering a described topic that no paper is about by its words: the one holding
    most of them, when it is also among the closest in meaning, and those nearly as close to it in
    words and in meaning; empty unless two are."""
    if len(concept.required) < DESCRIBED_WORDS or not hits:
        return []
    scored = [(coverage(concept, h.title, h.abstract, rarity), h) for h in hits]
    best, lead = max(scored, key=lambda pair: (pair[0], pair[1].dense_score))
    # The lead must be among the closest in meaning too: for "neural machine translation for
    # low-resource languages" (nothing here) the paper holding most words is 0.28 close, the closest 0.45.
    if best <= 0 or lead.dense_score < max(ABOUT_CLOSENESS, DESCRIBED_CLOSENESS * max(h.dense_score for h in hits)):
        return []
    near = [
        h
        for share, h in scored
        if h is lead or (share >= DESCRIBED_SHARE * best and h.dense_score >= DESCRIBED_CLOSENESS * lead.dense_score)
    ]
    return near if len(near) >= 2 else []


# "Show me theory papers about neural network training": the kind of paper asked for.
_PAPER_KIND = re.compile(
    r"\b(theory|theoretical|empirical|experimental|benchmark)\s+(?:papers?|works?|studies|results)\b|"
    # "is there any theory on why LLM agents work at all?": the theory papers of the topic, not every agent
    # system (c686.4 listed three systems beside the theory paper)
    r"^\W*(?:(?:and|so|ok|okay|also)\W+)?(?:is there|are there|any)\s+(?:any\s+)?(theory|theoretical work)\s+"
    r"(?:on|about|of|for|behind|explaining)\b",
    re.IGNORECASE,
)


# "just list em", "titles only", "no details": the papers named, nothing said of each
_TITLES_ONLY = re.compile(
    r"\bjust (?:list|name|give me)\b|\b(?:titles|names) only\b|\bonly (?:the )?(?:titles|names)\b|"
    r"\bno (?:details|summaries|descriptions)\b",
    re.IGNORECASE,
)


def _alternative_held(concept: Topic, hit: Hit) -> list[str]:
    """The words of the topic's alternatives that the paper holds every part of ("optimal
    transport / wasserstein": "wasserstein" for the Pufferfish paper, whose "convex optimization" is no
    optimal transport; c586.1 quoted that sentence); [] when it holds none whole."""
    if len(concept.alternatives) < 2:
        return []
    present = set(words(f"{hit.title} {hit.abstract}"))
    # the words as written first: "transport" is held by "Wasserstein" as a paraphrase
    for held in (lambda w: w in present, lambda w: holds(present, w)):
        # every alternative it holds: "privacy, like differential privacy variants" keeps "variants"
        kept = [a for a in concept.alternatives if all(any(held(w) for w in part) for part in a)]
        if kept:
            return list(dict.fromkeys(w for alternative in kept for part in alternative for w in sorted(part)))
    return []


def _run_on(hit: Hit, terms: Sequence[str], skip: Sequence[str]) -> list[Sentence]:
    """ "rl papers evaluated on simulated robot or control tasks": the sentence reporting results that
    holds most of the asked words ("Our experiments, spanning from simple Cartpole to ... DeepMind
    Control Suite environments"), where the paper says what it is run on; [] when none holds one
    (c721.1 gave EWoK's method sentence for its "simulating the worst scenarios")."""
    scored = [
        (_held_count(s.text, terms), bool(_RUN_ON_WHAT.search(s.text)), s)
        for s in split_sentences(hit.abstract)
        if s.text not in skip and REPORTS_RESULTS.search(s.text)
    ]
    best = max(((n, says) for n, says, _ in scored), default=(0, False))
    return [next(s for n, says, s in scored if (n, says) == best)] if best[0] else []


def _says_it_ran_on(hit: Hit, terms: Sequence[str]) -> bool:
    """Does a sentence of the abstract that reports results or names what was run ("We show on
    challenging robot simulation tasks") hold one of ``terms``?"""
    return any(
        _held_count(s.text, terms) and (REPORTS_RESULTS.search(s.text) or _RUN_ON_WHAT.search(s.text))
        for s in split_sentences(hit.abstract)
    )


# "rl papers evaluated on ...", "tested on atari": what the papers were tried on (not "vision
# transformers running on phones", where the device is the topic: c629.3 lost its design sentence)
_TESTED_ON = re.compile(r"\b(?:evaluated|tested|validated|experiments?|benchmarked)\b", re.IGNORECASE)
# A sentence naming what the experiments ran on ("spanning from simple Cartpole to ... environments"),
# before one that only reports an outcome ("EWoK achieves robustness by simulating the worst scenarios")
_RUN_ON_WHAT = re.compile(r"\b(?:experiments?|environments?|benchmarks?|tasks?|datasets?|suites?)\b", re.IGNORECASE)


def topic_list(
    concept: Topic, hits: Sequence[Hit], base: dict[str, Any], rarity: Rarity, question: str = ""
) -> Answer | None:
    """Every retrieved paper about ``concept`` (up to ``MAX_LISTED``), one cited line each saying what
    it does; None when no retrieved paper is about it. "Theory papers about X" lists those of them
    that state the kind of fact asked (a proof, a bound) after their contribution."""
    listed = about_topic(concept, hits, rarity) or described(concept, hits, rarity)
    kind = _PAPER_KIND.search(question) or PAPER_KIND_AFTER.search(question)
    if kind:
        wanted = asked_facets(next(g for g in kind.groups() if g))
        listed = [h for h in listed if stating(h.abstract, wanted, [], _skipped(h.abstract, False)) is not None]
    # "rl papers evaluated on ...": what the papers were run on, not what they study
    tested_on = concept.run_on and _TESTED_ON.search(question) is not None
    if tested_on:
        # "rl papers evaluated on simulated robot or control tasks": a paper run on them says so where it
        # reports what it ran on; the world-model paper's "learn a control policy" is its method (c721.1)
        ran = [h for h in listed if _says_it_ran_on(h, _alternative_held(concept, h) or concept.required)]
        listed = ran or listed
    listed = listed[:MAX_LISTED]
    if not listed:
        return None
    terms = concept.required
    field = (
        set.intersection(*({w for slot in a for w in slot} for a in concept.alternatives))
        if len(concept.alternatives) >= 2
        else set()
    )
    lines, citations = [], []
    for n, hit in enumerate(listed, 1):
        clean = without_injections(hit)
        skip = _skipped(clean.abstract, False)
        own_terms = _alternative_held(concept, clean) or terms
        # "rl papers w/ world models or learning diverse skills": the field every alternative holds says
        # nothing of why a paper is listed; its own words do (c619.1 quoted the theory paper's hierarchical RL
        # model, not its world-model extension)
        own_terms = [t for t in own_terms if t not in field] or own_terms
        chosen = _run_on(clean, own_terms, skip) if tested_on else []
        chosen = chosen or _what_it_does_about(clean, own_terms, skip, rarity)
        # "which papers are about reinforcement learning? just list em": the titles, each still cited
        # with the sentence that shows it is about the topic (c494.1 was padded with two sentences)
        text = _line_text(chosen, own_terms) if chosen and not _TITLES_ONLY.search(question) else ""
        # a paper listed by its label alone says so: its abstract never names the topic
        filed = (
            f" (filed under {hit.area})"
            if coverage(concept, hit.title, hit.abstract, rarity) < ABOUT_SHARE and _by_area(concept, hit, rarity)
            else ""
        )
        lines.append(f"- “{hit.title}” [{n}]{filed}" + (f": {text}" if text else "."))
        citations.append(_cited(n, hit, chosen))
    return Answer(
        answer="\n".join(lines),
        refused=False,
        citations=citations,
        passages=list(hits),
        mode="listing",
        focus=_focus(listed),
        **base,
    )


# "Which abstracts link to code or a project page?", "which papers release their code?": a property of
# the abstracts themselves, looked for in every one, not a topic searched for.
ASKS_LINKS = re.compile(
    r"\blink(?:s|ing)?\s+(?:to\s+)?(?:their\s+|the\s+|a\s+)?(?:code|github|project|website|repositor)|"
    r"\b(?:releas|shar|publish|provid|open[- ]sourc)\w*\s+(?:their\s+|the\s+|any\s+|its\s+)?code\b|"
    r"\bput out (?:their |the |any )?code\b|\bcode (?:or|and) (?:a )?project pages?\b|\bproject pages?\b|"
    r"\bgithub\b|\b(?:code|project page) links?\b",
    re.IGNORECASE,
)


MAX_POINTED = 20  # papers a link list names; past it, a note
_LINKISH = re.compile(r"https?://|www\.|github|\bavailable\b|open[- ]sourc", re.IGNORECASE)  # cheap pre-check

# "Which papers claim to be the first to do something?": a claim each abstract makes or not, looked
# for in every one, as links are.
ASKS_FIRSTS = re.compile(
    r"\b(?:claim\w*|sa(?:y|ys|id)|call\w*)\s+(?:to be\s+|(?:they|it)(?:'re| are| is| were)\s+)?(?:the\s+)?first\b|"
    r"\bthe first (?:ones?|papers?) to\b|\bfor the first time\b|\bfirst[- ]ever\b",
    re.IGNORECASE,
)
# "the first use of Pufferfish", "the first family of distributed bilevel algorithms", "for the first
# time": a claim of being first; "the first-layer weights", "the first stage" only count.
_FIRST_CLAIM = re.compile(
    # "the **first** family": abstracts carry their own emphasis marks
    r"\b(?:the \*{0,2}first\b\*{0,2}(?![- ](?:layer|stage|step|order|phase|term|half|part|few|time step|iteration|round|"
    r"author|two|three|\d))|for the first time\b|first[- ]ever\b)",
    re.IGNORECASE,
)


def pointer_list(hits: Sequence[Hit], base: dict[str, Any]) -> Answer | None:
    """The papers whose abstracts point to code, a project page or data, each with that sentence;
    past ``MAX_LISTED`` the rest are named in one cited sentence. None when no abstract points anywhere."""
    return _property_list(
        hits,
        base,
        lambda text: bool(_LINKISH.search(text)),
        is_pointer,
        "These abstracts link to code or a page too",
        "More abstracts link to code or a page",
    )


def first_claims(hits: Sequence[Hit], base: dict[str, Any]) -> Answer | None:
    """The papers whose abstracts claim to be first at something ("the first use of Pufferfish in
    private convex optimization"), each with that sentence; None when no abstract claims it."""
    return _property_list(
        hits,
        base,
        lambda text: bool(_FIRST_CLAIM.search(text)),
        lambda sentence: bool(_FIRST_CLAIM.search(sentence)),
        "These abstracts claim a first too",
        "More abstracts claim a first",
        antecedent=True,
    )


def _property_list(
    hits: Sequence[Hit],
    base: dict[str, Any],
    cheap: Callable[[str], bool],
    says: Callable[[str], bool],
    also: str,
    more_note: str,
    antecedent: bool = False,
) -> Answer | None:
    """The papers (up to ``MAX_POINTED``, in retrieval order) one of whose sentences ``says`` the
    property, each with its first such sentence; past ``MAX_LISTED`` the rest in one cited sentence.
    ``cheap``: a pre-check on the whole abstract, as a catalogue holds thousands; ``antecedent``: a
    claim that points back ("This is the first ...") comes with the sentence it points to."""
    found: list[tuple[Hit, list[Sentence]]] = []
    for hit in hits:
        if len(found) > MAX_POINTED:
            break  # a catalogue holds hundreds: the first ones in retrieval order, and a note
        if not cheap(hit.abstract):
            continue
        clean = without_injections(hit)
        sentences = split_sentences(clean.abstract)
        saying = [s for s in sentences if says(s.text)]
        if saying:
            found.append((hit, with_antecedent(saying[:1], sentences) if antecedent else saying[:1]))
    if not found:
        return None
    more = len(found) > MAX_POINTED
    found = found[:MAX_POINTED]
    lines = [f"- “{hit.title}” [{n}]: {_line_text(said, [])}" for n, (hit, said) in enumerate(found[:MAX_LISTED], 1)]
    rest = found[MAX_LISTED:]
    if rest:
        named = join([f"“{hit.title}” [{n}]" for n, (hit, _) in enumerate(rest, MAX_LISTED + 1)])
        lines.append(f"{also}: {named}.")
    if more:
        lines.append(f"{more_note}; narrow the question by topic to see them.")
    return Answer(
        answer="\n".join(lines),
        refused=False,
        citations=[_cited(n, hit, said) for n, (hit, said) in enumerate(found, 1)],
        passages=[hit for hit, _ in found],
        mode="listing",
        focus=_focus([hit for hit, _ in found]),
        **base,
    )


def _what_it_does_about(
    hit: Hit, terms: Sequence[str], skip: Sequence[str], rarity: Rarity | None = None
) -> list[Sentence]:
    """What the paper does, said in the sentence that also names the topic when there is one (see
    ``_doing_about``). With ``rarity``, a line that lacks the topic's most telling word the abstract
    holds gets the sentence saying it, unless that one sets the scene of other work: "anything about
    differential privacy?" of the Pufferfish paper, whose contribution says only "private" and
    whose opening says "a generalization of differential privacy"."""
    line = _doing_about(hit, terms, skip)
    if not line or rarity is None:
        return line
    sentences = [s for s in split_sentences(hit.abstract) if s.text not in skip]
    present = set(words(" ".join(s.text for s in sentences)))
    held = [t for t in dict.fromkeys(terms) if holds(present, t)]
    if not held:
        return line
    if _holds(" ".join(s.text for s in line), held):
        # A line holding some of the topic's words says why it is listed: adding the sentence with the
        # rarest one put opening background sentences on list lines read as GOOD (the RL, PDE, OOD lists).
        return line
    rarest = max(held, key=rarity.weight)
    taken = {s.start for s in line}
    # "Recent LLM-driven visual agents mainly focus on ...": what others do is no tie to the topic.
    ties = [
        s
        for i, s in enumerate(sentences)
        if s.start not in taken and _holds(s.text, [rarest]) and not sets_scene(sentences, i)
    ]
    if not ties:
        return line
    tie = max(ties, key=lambda s: (_held_count(s.text, terms), -s.start))
    return sorted([*line, tie], key=lambda s: s.start)


def _doing_about(hit: Hit, terms: Sequence[str], skip: Sequence[str]) -> list[Sentence]:
    """A contribution sentence holding the topic's words, else the contribution sentence (with the
    later sentence holding most of the topic's words), else the first sentence about the topic that
    is not background."""
    sentences = [s for s in split_sentences(hit.abstract) if s.text not in skip]
    contributions = [s for s in sentences if _ASPECT_CUES["method"].search(s.text) or _WE.search(s.text)]
    # What a paper proposes before what it finds ("we show standard fine-tuning does not help").
    contributions.sort(key=lambda s: bool(SHOWS_FINDING.search(s.text)) and not _PROPOSES.search(s.text))
    scored = [(answering(s.text, terms) is not None, s) for s in contributions]
    for has_topic, s in scored:
        if has_topic:
            return [s]
    doing = what_it_does(hit.abstract, hit.title, skip)
    if doing is None:
        return []
    # "Which papers measure efficiency on hardware, e.g. GPUs?": Lookahead's contribution sentence does
    # not say why it is listed; the sentence after it that holds the topic's words does ("4x with
    # strong scaling on multiple GPUs"). Of several, the one holding most of them: "riemannian
    # manifolds or geodesic convexity" is said by "a local geodesic convexity ... on the manifold",
    # not by the first sentence that says "manifold".
    telling = sorted(
        (
            s
            for i, s in enumerate(sentences)
            if s.start > doing.start and not sets_scene(sentences, i) and _holds(s.text, terms)
        ),
        key=lambda s: -_held_count(s.text, terms),
    )
    # "This paper extends this direction ...": the contribution comes with what it points back to.
    return with_antecedent([doing], sentences) + telling[:1]


def _held_count(text: str, terms: Sequence[str]) -> int:
    """How many of ``terms`` (or their paraphrases and forms) ``text`` holds."""
    present = set(words(text))
    return sum(holds(present, t) for t in terms)


_BY_THE_THING = re.compile(r"^(?:that|this)\s+[a-z][\w-]*$", re.IGNORECASE)


def comparison(question: str, hits: Sequence[Hit], base: dict[str, Any], names: Sequence[str] = ()) -> Answer:
    """A cited table of the papers' problem, method and results, and one sentence stating how they
    differ (on what the question asks about, else on what each does), each side cited."""
    question = asked_part(question)  # "... both handle time series. How are they different?"
    rows: list[dict[str, Any]] = []
    citations: list[Citation] = []
    # The words that name the compared papers ("the action-conditioned world models paper") or their
    # common topic ask for nothing; what is left is what the comparison is about ("organize memory").
    listed = set(topic(question).required) if re.search(r"\bpapers\b", question, re.IGNORECASE) else set()
    # "how's that planner different from the one in the theory paper": "that planner" points at the paper
    # by the thing compared, which stays asked (c455.4 compared what each paper is about)
    named = {w for n in names if not _BY_THE_THING.match(n.strip()) for w in words(n)}
    shared = listed | named | {w for h in hits for w in words(short_name(h))}
    terms = [t for t in focal_terms(question) if t not in shared]
    facets = asked_facets(question)
    looked_up = [t for t in terms if t not in _ASKABLE and t not in facet_words(facets)]
    sides: list[tuple[Hit, list[Sentence]]] = []
    all_cells = []
    for h in hits:
        clean = without_injections(h)
        cells = table_cells(clean)
        all_cells.append(cells)
        asked = answer_sentences(clean, question, terms=terms) if terms or facets else []
        if not asked and looked_up:  # said only while setting the scene is still said
            asked = _mentioning(clean, looked_up, _skipped(clean.abstract, False))
        # The side says what the paper proposes, not the background its method cell may open with.
        proposing = [x for x in cells["method"] if _PROPOSES.search(x.text) or METHOD_CUE.search(x.text)]
        sides.append((h, asked if terms or facets else (proposing or cells["method"])[:1]))
    if (terms or facets) and not any(found for _, found in sides):  # nothing asked is in any abstract: what each does
        sides = [(h, table_cells(h)["method"]) for h, _ in sides]
    summary = _differences(sides, terms, _asked_phrase(question, terms))
    for n, (h, cells, (_, said)) in enumerate(zip(hits, all_cells, sides), 1):
        # A sentence the summary above says (its own, or the one before it that it leans on) is not said
        # again in the table: read twice, it was padding (c292.4, c398.3, c467.4, c175.4 judged PARTIAL
        # for it); a cell left empty points up to it.
        stated = {x.text for x in said}
        rows.append(
            {"n": n, "paper_id": h.paper_id, "title": h.title}
            | {
                a: " ".join(x.text for x in cell if x.text not in stated and x.text not in summary)
                or ("(said above)" if cell else "—")
                for a, cell in cells.items()
            }
        )
        citations.append(_cited(n, h, [x for cell in cells.values() for x in cell] + said))
    header = "| | " + " | ".join(f"[{r['n']}] {r['title']}" for r in rows) + " |"
    lines = [header, "|---" * (len(rows) + 1) + "|"]
    for aspect in ASPECTS:
        lines.append(
            f"| {aspect} | "
            + " | ".join(f"{_cell(r[aspect])} [{r['n']}]" if r[aspect] != "—" else "—" for r in rows)
            + " |"
        )
    if SHARED_AUTHORS.search(question):
        summary += " " + shared_authors(hits)  # "compare them - do they share authors?"
    return Answer(
        answer=summary + "\n\n" + "\n".join(lines),
        refused=False,
        citations=citations,
        passages=list(hits),
        mode="comparison",
        table=rows,
        focus=_focus(hits),
        **base,
    )


def _differences(sides: Sequence[tuple[Hit, list[Sentence]]], terms: Sequence[str], phrase: str) -> str:
    """ "A [1] proposes ..., whereas B [2] introduces ..." when both sides are "we" statements; else a
    sentence per paper, saying so where an abstract does not address what was asked."""
    # "No Free Prune puts forward a theoretical explanation for this": a sentence that leans on the
    # one before it comes with that sentence, and then cannot be folded into one "whereas" clause.
    extended = [with_antecedent(s, split_sentences(h.abstract)) if s else s for h, s in sides]
    leaning = [len(e) > len(s) for (_, s), e in zip(sides, extended)]
    sides = [(h, e) for (h, _), e in zip(sides, extended)]
    clauses = [
        (h, third_person(_line_text(s, terms)) if s and not lean else None) for (h, s), lean in zip(sides, leaning)
    ]
    if len(sides) == 2 and all(c for _, c in clauses):
        (a, ca), (b, cb) = clauses
        return f"{short_name(a)} [1] {ca}, whereas {short_name(b)} [2] {cb}."
    out = []
    for n, ((h, sentences), (_, clause)) in enumerate(zip(sides, clauses), 1):
        if not sentences:
            out.append(
                f"{short_name(h)} [{n}]: the abstract does not mention “{phrase}”."
                if phrase
                else f"{short_name(h)} [{n}]: the abstract does not say."
            )
        else:
            out.append(
                f"{short_name(h)} [{n}] {clause}."
                if clause
                else f"{short_name(h)} [{n}]: {_line_text(sentences, terms)}"
            )
    return " ".join(out)


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


_ASKING = re.compile(
    r"^(?:(?:does|do|is|are)\s+)?(?:any|anything|something|there)(?:\s+(?:papers?|work|one))?"
    r"(?:\s+(?:here|do|does|on|about|with))*\s+",
    re.IGNORECASE,
)


def not_found(concept: Topic, hits: Sequence[Hit], base: dict[str, Any], besides: Sequence[Hit] = ()) -> Answer:
    """Nothing indexed is about the concept: say so, naming it, then the closest papers. After
    "any other paper on X?", the papers already shown are named as the ones there are."""
    closest = "; ".join(f"“{h.title}”" for h in hits[:3])
    about = [h for h in besides if coverage(concept, h.title, h.abstract) >= ABOUT_SHARE]
    shown = " and ".join(f"“{h.title}”" for h in about)
    # "does anything do kv cache compression", "any physics-informed neural networks": a concept read
    # from the whole question names its subject after the asking
    subject = _ASKING.sub("", concept.text.strip(" ?.")) or concept.text.strip(" ?.")
    if subject.count("(") > subject.count(")"):
        subject += ")"  # "physics-informed neural networks (pinns)" lost its closing bracket with the "?"
    text = (
        f"Besides {shown}, no other indexed paper is about {subject}, and none of the other abstracts closest to "
        "the question mentions it."
        if about
        else f"The indexed papers do not answer this question: no indexed paper is about {subject}, and none of the "
        "abstracts closest to the question mentions it."
    ) + (f" The closest papers are {closest}." if closest else "")
    return Answer(
        answer=text, refused=True, citations=[], passages=list(hits), mode="refusal", focus=closest_named(hits), **base
    )


def closest_named(hits: Sequence[Hit]) -> list[dict[str, Any]]:
    """The focus entries of the closest papers a refusal names ("closest": in no focus, but a later
    "that speech synthesis one" may describe one of them)."""
    return [{"paper_id": h.paper_id, "title": h.title, "closest": True} for h in hits[:3]]


_WHAT_IS = re.compile(r"^\W*(?:and |so |ok,? )?what(?:'s| is| are|’s)\b", re.IGNORECASE)
_DEFINES = re.compile(
    r"\b(?:given by|defined as|defined by|which (?:measures|counts|captures)|that is,)", re.IGNORECASE
)
# "regular self-attention", "standard fine-tuning": the usual way of doing it, not a paper
USUAL = re.compile(
    r"^(?:the |a |an )?(?:regular|standard|classical|classic|usual|vanilla|ordinary|plain|normal|conventional)\s+",
    re.IGNORECASE,
)
_SETS_AGAINST = r"different from|differs? from|unlike|in contrast (?:to|with)|compared (?:to|with)|as opposed to"


def _last_name(side: str) -> str:
    """The name a side of a comparison ends with ("whats the difference between EBBA" -> "EBBA"), or the
    side itself when its last word names nothing."""
    last = side.split()[-1].strip("?,.;:!\"'“”") if side.split() else side
    return last if named_terms(last) else side


def compared_within(hit: Hit, targets: Sequence[str], base: dict[str, Any]) -> Answer | None:
    """ "EBBA vs EBBA+?" of the paper that introduces both: for each name, the first sentence that
    says it (one that says it alone, if any), in the abstract's order; None unless two names are
    said in two different sentences ("numbers vs MeZO?" is answered by the asked kind of fact)."""
    clean = without_injections(hit)
    sentences = split_sentences(clean.abstract)
    said: list[Sentence] = []
    for target in targets:
        # "how does it compare to FNO" of PiT: the sentence setting it against the "Fourier neural operator"
        # (one name beside the paper itself; "how is position-attention different from self attention, and
        # how does it compare to FNO" is asked of the paper whole, each part its sentence, c397.2)
        if len(targets) == 1:
            said += [s for s in sentences if spells_out(target.strip(), s.text.casefold())][:1]
        # "how is PiT's attention different from regular self-attention?": the abstract's sentence that
        # sets its method against the usual one ("Different from self-attention, position-attention is
        # induced by only the spatial interrelations of sampling positions ...") says the difference.
        usual = USUAL.sub("", target).strip()
        if named_terms(usual) or len(usual) < 4 or usual == target:
            continue
        against = re.compile(rf"\b(?:{_SETS_AGAINST})\s+(?:the\s+)?(?:[\w-]+\s+)?{re.escape(usual)}\b", re.IGNORECASE)
        said += [s for s in sentences if against.search(s.text)][:1]
    if said:
        said = sorted({s.start: s for s in said}.values(), key=lambda s: s.start)
        return Answer(
            answer=f"“{hit.title}” [1]: {' '.join(s.text for s in said)}",
            refused=False,
            citations=[_cited(1, hit, said)],
            passages=[hit],
            mode="comparison",
            focus=_focus([hit]),
            **base,
        )
    # "whats the difference between EBBA and EBBA+": the name that ends a side, not the words asking before it
    names = [_last_name(t) for t in targets if named_terms(t)]
    if len(names) < 2:
        return None

    def says(sentence: Sentence, name: str) -> bool:
        return says_name(sentence.text, name)

    listing = re.compile(
        "|".join(rf"{re.escape(a)}\s*(?:,|and|or|&)\s*{re.escape(b)}" for a in names for b in names if a != b)
    )
    picked: list[Sentence] = []
    for name in names:
        saying = [s for s in sentences if says(s, name) and s not in picked]
        alone = [s for s in saying if not any(says(s, other) for other in names if other != name)]
        # "called EBBA and EBBA+" only lists them; "we extend EBBA to develop EBBA+, ..." says what EBBA+ is
        telling = [s for s in saying if not listing.search(s.text)]
        if not saying:
            return None
        picked.append((alone or telling or saying)[0])
    if len({s.start for s in picked}) < 2:
        return None
    chosen = sorted(picked, key=lambda s: s.start)
    return Answer(
        answer=f"“{hit.title}” [1]: " + " ".join(s.text for s in chosen),
        refused=False,
        citations=[_cited(1, hit, chosen)],
        passages=[hit],
        mode="comparison",
        focus=_focus([hit]),
        **base,
    )


def focus_note(note: str, hits: Sequence[Hit], base: dict[str, Any], then: str = "") -> Answer:
    """The follow-up pointed past the papers in focus ("the third one" of two): say which there are,
    and ``then`` what the user can ask instead."""
    named = join([f"“{h.title}” [{n}]" for n, h in enumerate(hits, 1)])
    first = note.split(":", 1)[0]
    text = f"{first}: {named}. " + (
        then or ("Ask about it by name." if len(hits) == 1 else "Ask about one of them by its position or name.")
    )
    return Answer(
        answer=text,
        refused=False,
        citations=[citation(n, h, [], []) for n, h in enumerate(hits, 1)],
        passages=list(hits),
        mode="clarification",
        focus=_focus(hits),
        **base,
    )


def listing(
    lead: str,
    listed: list[Hit],
    related: list[Hit],
    base: dict[str, Any],
    passages: list[Hit],
    authors: Sequence[str] = (),
) -> Answer:
    """One sentence naming each paper with its own citation, e.g. "Indexed papers by X: A [1]; B [2].".
    With several ``authors`` asked, each paper says which of them it lists: "Indexed papers by Florian
    Dorner and Moritz Hardt: A [2]; B [3]" read as both of them on each (neither lists Dorner)."""

    def named(h: Hit, i: int) -> str:
        among = [a for a in authors if a in h.paper.authors]
        return f"“{h.title}” [{i}]" + (f" ({join(among)})" if len(authors) > 1 and among else "")

    cited = listed + related
    text = f"{lead}: " + "; ".join(named(h, i) for i, h in enumerate(listed, 1))
    if related:
        text += "; related by content: " + "; ".join(
            f"“{h.title}” [{i}]" for i, h in enumerate(related, len(listed) + 1)
        )
    citations = [citation(i, h, [], []) for i, h in enumerate(cited, 1)]
    return Answer(
        answer=text + ".",
        refused=False,
        citations=citations,
        passages=passages,
        mode="metadata",
        focus=_focus(cited),
        **base,
    )


def shared_authors(hits: Sequence[Hit]) -> str:
    """Who wrote all of ``hits``, from the records, with their citation numbers."""
    cited = " and ".join(f"[{n}]" for n in range(1, len(hits) + 1))
    common = [a for a in hits[0].authors if all(a in h.authors for h in hits[1:])] if hits else []
    if not common and len(hits) > 2:
        # Of three or more papers, those two or more share are what the asker wants to know.
        shared = {a: [n for n, h in enumerate(hits, 1) if a in h.authors] for h in hits for a in h.authors}
        found = [f"{a} is an author of {join([f'[{n}]' for n in ns])}" for a, ns in shared.items() if len(ns) > 1]
        if not found:
            return f"No two of the papers {join([f'[{n}]' for n in range(1, len(hits) + 1)])} share an author."
        return "; ".join(found) + "; no author wrote all of them."
    if not common:
        return f"The papers {cited} share no author."
    return f"{join(common)} {'is an author' if len(common) == 1 else 'are authors'} of {'both' if len(hits) == 2 else 'all'} {cited}."


def authors(hits: Sequence[Hit], base: dict[str, Any], passages: Sequence[Hit], with_area: bool = False) -> Answer:
    """Who wrote each paper, from the records; with its subject area when that is asked too ("who
    are the authors and what is the area?")."""
    lines = [
        f"“{h.title}” [{n}] was written by {join(h.authors) or 'authors not listed in the catalogue'}."
        + (f" Its subject area is {h.area}." if with_area and h.area else "")
        + (" The catalogue lists no subject area for it." if with_area and not h.area else "")
        for n, h in enumerate(hits, 1)
    ]
    text = "\n".join(f"- {line}" for line in lines) if len(lines) > 1 else lines[0]
    if len(hits) > 1 and SHARED_AUTHORS.search(base.get("question", "")):
        text += "\n\n" + shared_authors(hits)
    return Answer(
        answer=text,
        refused=False,
        citations=[citation(n, h, [], []) for n, h in enumerate(hits, 1)],
        passages=list(passages),
        mode="metadata",
        focus=_focus(hits),
        **base,
    )


def join(names: Sequence[str], word: str = "and") -> str:
    """ "A", "A and B", "A, B and C" (or "A, B or C" with ``word`` "or")."""
    names = list(names)
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + f" {word} " + names[-1] if names else ""
