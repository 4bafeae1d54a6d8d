"""Text helpers, the one home for them: sentences with their offsets, word tokens for BM25 and
word matching, accent folding for names, and the numbers and method-like names a claim must share
with its source.

Shared by chunking, the lexical index, retrieval and the answer checks.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

# Abbreviations after which a period does not end a sentence.
_ABBREVIATIONS = {
    "e.g",
    "i.e",
    "et al",
    "etc",
    "vs",
    "cf",
    "a.k.a",
    "fig",
    "eq",
    "sec",
    "approx",
    "resp",
    "dr",
    "mr",
    "ms",
    "prof",
    "vol",
    "w.r.t",
    "incl",
}
# A candidate boundary: sentence punctuation (maybe closed by a quote/bracket) then space.
_BOUNDARY = re.compile(r"[.!?][\"')\]*”’]*\s+")  # "... question?* This paper": markdown emphasis closes too


@dataclass(frozen=True)
class Sentence:
    """A sentence and where it sits in its source text."""

    text: str
    start: int
    end: int


def _ends_with_abbreviation(prefix: str) -> bool:
    tail = prefix.rstrip(".!?\"')]*”’").lower()
    for abbr in _ABBREVIATIONS:
        if tail.endswith(abbr) and (len(tail) == len(abbr) or not tail[-len(abbr) - 1].isalnum()):
            return True
    # A single capital initial ("J. Smith") is not a sentence end either.
    return bool(re.search(r"(?:^|\s)[A-Z]$", tail))


def split_sentences(text: str) -> list[Sentence]:
    """Split ``text`` into sentences; offsets index into ``text`` exactly."""
    sentences: list[Sentence] = []
    start = 0
    for match in _BOUNDARY.finditer(text):
        end = match.start() + len(match.group(0).rstrip())
        following = text[match.end() : match.end() + 1]
        # Only split before something that can open a sentence.
        if following and not (following.isupper() or following.isdigit() or following in "$\\([\"'"):
            continue
        if _ends_with_abbreviation(text[start:end]):
            continue
        _append(sentences, text, start, end)
        start = match.end()
    _append(sentences, text, start, len(text))
    return sentences


def _append(out: list[Sentence], text: str, start: int, end: int) -> None:
    # Trim whitespace but keep offsets pointing at the trimmed span.
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    if end > start:
        out.append(Sentence(text[start:end], start, end))


# ------------------------------------------------------------ words
_WORD = re.compile(r"[^\W_]+", re.UNICODE)
_STOPWORDS = frozenset(
    [
        "a",
        "about",
        "above",
        "after",
        "again",
        "against",
        "all",
        "am",
        "an",
        "and",
        "any",
        "are",
        "as",
        "at",
        "be",
        "because",
        "been",
        "before",
        "being",
        "below",
        "between",
        "both",
        "but",
        "by",
        "can",
        "could",
        "did",
        "do",
        "does",
        "doing",
        "down",
        "during",
        "each",
        "few",
        "for",
        "from",
        "further",
        "had",
        "has",
        "have",
        "having",
        "he",
        "her",
        "here",
        "hers",
        "herself",
        "him",
        "himself",
        "his",
        "how",
        "i",
        "if",
        "in",
        "into",
        "is",
        "it",
        "its",
        "itself",
        "just",
        "me",
        "more",
        "most",
        "my",
        "myself",
        "no",
        "nor",
        "not",
        "now",
        "of",
        "off",
        "on",
        "once",
        "only",
        "or",
        "other",
        "our",
        "ours",
        "ourselves",
        "out",
        "over",
        "own",
        "same",
        "she",
        "should",
        "so",
        "some",
        "such",
        "than",
        "that",
        "the",
        "their",
        "theirs",
        "them",
        "themselves",
        "then",
        "there",
        "these",
        "they",
        "this",
        "those",
        "through",
        "to",
        "too",
        "under",
        "until",
        "up",
        "very",
        "was",
        "we",
        "were",
        "what",
        "when",
        "where",
        "which",
        "while",
        "who",
        "whom",
        "why",
        "will",
        "with",
        "would",
        "you",
        "your",
        "yours",
        "yourself",
        "yourselves",
        "paper",
        "papers",
        "propose",
        "proposes",
        "proposed",
        "show",
        "shows",
        "study",
        "studies",
        "work",
        "works",
        "approach",
        "method",
        "methods",
        "use",
        "uses",
        "using",
        "used",
        "via",
        "new",
    ]
)


@lru_cache(maxsize=1)
def _stem() -> Callable[[list[str]], list[str]]:
    try:
        import Stemmer

        stemmer = Stemmer.Stemmer("english")
        return stemmer.stemWords
    except ImportError:  # pragma: no cover - PyStemmer is a dependency; keep working without it
        return lambda words: [w[:-1] if w.endswith("s") and len(w) > 3 else w for w in words]


def tokenize(text: str) -> list[str]:
    """Lower-cased, stop-word-free, stemmed word tokens."""
    words = [w for w in _WORD.findall(text.lower()) if w not in _STOPWORDS]
    return _stem()(words)


def fold(text: str) -> str:
    """Lower-case, accent-free text for name matching."""
    return "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c)).casefold()


# ------------------------------------------------------------ numbers and names
_NUMBER = re.compile(r"(?<![\w.])\d+(?:[.,]\d+)*(?:\s?%|x|×|[KMB]\b)?", re.IGNORECASE)
# A number that is part of a name ("iPhone 12", "GPT-4", "Atari-100k") or of a formula ("$O(N^2D)$")
# ("$10\times$" is a figure: only a formula with a power or a function of its variables is dropped)
_NAME_NUMBER = re.compile(
    r"\b(?:[a-z]+[A-Z]\w*|[A-Z]{2,}\w*)[ -]?\d[\w.]*|\b[A-Za-z]+-\d[\w.]*|\$[^$]*(?:\^|\\mathcal|[A-Za-z]\()[^$]*\$"
)
_NAMED = re.compile(r"\b(?:[A-Za-z]*[A-Z][a-z]*[A-Z][\w-]*|[A-Za-z]+-[A-Za-z0-9-]*\d[\w-]*|[A-Z]{2,}[\w-]*)\b")


def numbers(text: str) -> set[str]:
    """Numbers in ``text``, normalised (no thousands commas, no space before %)."""
    return {re.sub(r"(?<=\d),(?=\d{3}\b)", "", n).replace(" ", "").lower() for n in _NUMBER.findall(text)}


def figures(text: str) -> set[str]:
    """The numbers of ``text`` that state an amount: not those of a name ("remarkable reductions in
    latency on the iPhone 12" gives no figure for how much faster) or of a formula ("$O(N^2D)$")."""
    return numbers(_NAME_NUMBER.sub(" ", text))


# Acronyms too common in ML to show that a question names a specific paper, or that a sentence
# names a dataset or model ("superior OOD generalization" names none).
GENERIC_NAMES = {
    "llm",
    "llms",
    # "how large were the LMs in the codebook work": language models, no paper's name (c559.3 took MeZO-SVRG)
    "lm",
    "lms",
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
    "vit",
    "vits",
    "pde",
    "pdes",
    "ode",
    "odes",
    "sgd",
    "ood",
    "dp",
    "vae",
    "vaes",
    "moe",
    "mdp",
    "mdps",
    "gpt",
}


def named_terms(text: str) -> set[str]:
    """Method-like names: CamelCase, ACRONYMS, hyphenated names with digits."""
    return {t for t in _NAMED.findall(text) if len(t) > 1}


def spells_out(acronym: str, text: str) -> bool:
    """Does ``text`` spell out ``acronym`` ("FNO": "Fourier neural operator")? PiT's abstract compares
    it with the "Fourier neural operator" and never writes "FNO" (c397.2 brought in two other papers)."""
    if not re.fullmatch(r"[A-Z]{2,6}s?", acronym):
        return False
    letters = acronym.rstrip("s").lower()
    spelled = r"[\s-]+".join(rf"{c}[\w']*" for c in letters)
    return re.search(rf"\b{spelled}\b", text) is not None
