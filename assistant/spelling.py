"""Words of a question misspelt against the index's own words ("differential privcy" is "privacy").

A word the index never uses cannot find a paper, and the answer then says no paper is about it,
though the asker typed a letter too few (c667.1 was refused for "privcy"). Only the slips people make
most are mended, one letter left out, two neighbours swapped or a doubled letter typed once, and only
where the index holds exactly one word so reached: a word that is merely absent from the index, or whose stem it holds, stays
as it is. A British spelling ("behaviours", "optimise") is written as the abstracts write it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from assistant.text import tokenize

# Lower case only (names and acronyms are left alone), six letters at least: shorter words are a letter
# apart by chance ("votes" / "voters", "drive" / "derive", "leans" / "learns": all four were asked in the eval);
# five-letter words are mended only of a doubled letter typed once ("skils": c704.3 was refused)
_LOWER_WORD = re.compile(r"(?<![\w'’-])[a-z]{5,}(?![\w'’-])")
_SHORTEST = 6
# British spellings of words the abstracts spell the American way ("behaviours", "optimise", "analyse"):
# c694.1 required "behaviour" and left out the diverse-skills paper, whose abstract says "behavior"
_BRITISH = (
    (re.compile(r"our(?=s?$|ed$|ing$|al$)"), "or"),
    (re.compile(r"is(?=e$|es$|ed$|ing$|ation$|ations$|er$|ers$)"), "iz"),
    (re.compile(r"ys(?=e$|es$|ed$|ing$)"), "yz"),
)
# Words spelt "-ise" in American English too ("expertise" is no "expertize", which an abstract may write)
_ISE_WORDS = re.compile(
    r"^(?:expert|exerc|adv|rev|prem|surpr|comprom|enterpr|prom|prec|conc|no|ra|pra|otherw|likew|superv|improv|"
    r"dev|compr|franch|merchand|telev|desp|disgu|ar|surm|exc|inc|cru|po|ch|cl)is(?:e|es|ed|ing|er|ers)$"
)
_INDEX_WORD = re.compile(r"[a-z]+")
# Words that join a sentence and that an index of abstracts may never use ("drop this though," is not "through")
_EVERYDAY = frozenset(["though", "although", "unless", "whereas", "whilst", "besides", "anyway", "anyhow", "rather"])


class Vocabulary:
    """The lower-case words of an index's titles and abstracts, to mend misspelt question words against."""

    def __init__(self, documents: Iterable[str]) -> None:
        self.words: set[str] = set()
        self.stems: set[str] = set()
        for text in documents:
            self.words.update(w for w in _INDEX_WORD.findall(text.lower()) if len(w) >= 3)
            self.stems.update(tokenize(text))

    def mended(self, word: str) -> str | None:
        """The one index word ``word`` is a slip of (a letter left out inside it, two neighbouring
        letters swapped, a doubled letter typed once) or the American spelling of; None when the index
        holds ``word`` or no single word so reached."""
        if word in self.words or word in _EVERYDAY or set(tokenize(word)) <= self.stems:
            # a form of a word the index uses is found by its stem, as typed ("saying", "resets", "underlies"
            # are no slips of "staying", "resnets", "underlines", which a 2,634-paper index alone would hold)
            return None
        british = len(word) >= _SHORTEST and not _ISE_WORDS.match(word)  # "hours" is no British "hors"
        american = {pattern.sub(spelt, word, count=1) for pattern, spelt in _BRITISH if british} - {word}
        found = {a for a in american if a in self.words or set(tokenize(a)) <= self.stems}
        if found:
            return next(iter(found)) if len(found) == 1 else None
        found = {
            c
            for c in (_slips_of(word) if len(word) >= _SHORTEST else _doubled(word))
            if c in self.words
            # "model" -> "models": a word and its inflection are both words, not a slip
            and not c.startswith(word)
            and not word.startswith(c)
        }
        return next(iter(found)) if len(found) == 1 else None

    def correct(self, question: str) -> str:
        """``question`` with each misspelt lower-case word written as the index writes it."""
        return _LOWER_WORD.sub(lambda m: self.mended(m.group()) or m.group(), question)


def _slips_of(word: str) -> set[str]:
    """Words ``word`` would be had one letter not been left out inside it, or two neighbours not been swapped."""
    letters = "abcdefghijklmnopqrstuvwxyz"
    inserted = {word[:i] + ch + word[i:] for i in range(1, len(word)) for ch in letters}
    swapped = {word[:i] + word[i + 1] + word[i] + word[i + 2 :] for i in range(1, len(word) - 1)}
    return inserted | swapped


def _doubled(word: str) -> set[str]:
    """Words ``word`` would be had one of its doubled letters not been typed once ("skils" -> "skills")."""
    return {word[: i + 1] + word[i] + word[i + 1 :] for i in range(len(word))}
