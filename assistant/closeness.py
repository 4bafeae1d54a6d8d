"""How close in meaning each abstract sentence is to the question: a tie-break between the
sentences the evidence rules already accept, never a way in for one they reject.

The rules pick evidence by what a question asks (a facet cue, the asked words); among the
sentences they score alike they used to take the first. "What's the main finding of each?" of
Don't Label Twice scored "We prove a theorem that runs counter to conventional wisdom" and "we show
it's best to spend the budget on collecting a single label for more samples" alike; MiniLM puts
the second nearer the question. Sentence vectors are cached by text, so a conversation about the
same papers embeds each sentence once.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Sequence

import numpy as np

from assistant.embedding import Embedder, EmbedderError
from assistant.retrieval import Hit
from assistant.text import split_sentences

# Sentence vectors kept between questions: five papers of ten sentences a turn fill it in about
# eighty turns; 384 floats each, about 6 MB in all.
CACHE_SIZE = 4096

Closeness = Callable[[str], float]


class SentenceCloseness:
    """Embeds the question and the sentences of the papers in focus; ``for_question`` gives the
    cosine of any of those sentences to the question (0.0 for a text it was not given)."""

    def __init__(self, embedder: Callable[[], Embedder], cache_size: int = CACHE_SIZE) -> None:
        self._embedder = embedder
        self._cache: OrderedDict[str, np.ndarray] = OrderedDict()
        self._cache_size = cache_size

    def for_question(self, question: str, hits: Sequence[Hit]) -> Closeness:
        """The closeness of each sentence of ``hits``' abstracts to ``question``; 0.0 for every
        sentence when the embedder cannot be loaded (the rules alone still answer)."""
        texts = [s.text for h in hits for s in split_sentences(h.abstract)]
        try:
            vectors = self._vectors([question, *texts])
        except EmbedderError:
            return lambda text: 0.0
        asked = vectors[0]
        scores = {t: float(v @ asked) for t, v in zip(texts, vectors[1:])}
        return lambda text: scores.get(text, 0.0)

    def _vectors(self, texts: list[str]) -> list[np.ndarray]:
        missing = list(dict.fromkeys(t for t in texts if t not in self._cache))
        if missing:
            for text, vector in zip(missing, self._embedder().embed(missing)):
                self._cache[text] = np.asarray(vector, dtype=np.float32)
        found = [self._cache[t] for t in texts]
        for t in texts:
            self._cache.move_to_end(t)
        while len(self._cache) > self._cache_size:
            self._cache.popitem(last=False)
        return found
