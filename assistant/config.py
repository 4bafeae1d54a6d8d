"""One settings object for the whole assistant.

Every field is read from an environment variable named ``ASSISTANT_<FIELD>`` (upper case)
and can be overridden by the matching command-line flag. Unknown ``ASSISTANT_*`` variables
are rejected so that a typo does not silently fall back to a default.
"""

from __future__ import annotations

import math
import os
from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any

from assistant.errors import AssistantError
from assistant.paths import PROJECT_ROOT, default_data_dir, resource

__all__ = ["PROJECT_ROOT", "ConfigError", "Settings"]

ENV_PREFIX = "ASSISTANT_"


class ConfigError(AssistantError, ValueError):
    """A setting has a bad value or an unknown name."""


def _doc(text: str, default: Any) -> Any:
    return field(default=default, metadata={"doc": text})


@dataclass(frozen=True)
class Settings:
    """All settings; see ``assistant --help`` for the list with descriptions."""

    data_dir: Path = _doc(
        "Folder holding the index (Chroma + BM25); data/ in a checkout, else the user's data dir.", default_data_dir()
    )
    seeds_dir: Path = _doc("Folder ingested when `ingest` gets no path (the packaged seeds).", resource("seeds"))
    chroma_url: str = _doc("URL of a Chroma server (e.g. http://127.0.0.1:8000); empty = embedded.", "")
    embed_model: str = _doc(
        "Sentence-transformers model folder; empty = packaged all-MiniLM-L6-v2; 'hash' = model-free test embedder.", ""
    )
    model_path: str = _doc("GGUF file for answers; empty = a .gguf in models/, else packaged SmolLM2.", "")
    llm_url: str = _doc("OpenAI-compatible server base URL (e.g. http://127.0.0.1:8080/v1); overrides model_path.", "")
    llm_model: str = _doc("Model name sent to the OpenAI-compatible server.", "default")
    llm_timeout: float = _doc("Seconds to wait for the LLM server per request.", 60.0)
    llm_reply_seconds: float = _doc(
        "Most seconds one streamed reply from the LLM server may take in all; past it "
        "the answer is made from the abstracts.",
        120.0,
    )
    llm_threads: int = _doc("CPU threads for the in-process model; 0 = all cores.", 0)
    max_tokens: int = _doc("Most tokens the model may write per answer (the checker keeps at most 4 sentences).", 120)
    top_k: int = _doc("Papers returned by search / given to the model.", 5)
    max_query_chars: int = _doc("Longer questions are cut to this many characters (with a notice).", 2000)
    rrf_k: int = _doc("Reciprocal-rank-fusion constant.", 60)
    # RRF 1:1, k=60 stays the default. Over the catalogue z-score fusion 0.3 : 0.7 (fusion=zscore,
    # dense_weight=0.3, lexical_weight=0.7) ranks better and passes the bar on the held-out questions
    # (MRR 0.932 against BM25 0.913 and RRF 0.887; bench/FUSION.md), but the answers over the seed
    # papers read worse with it: of the judged answers it changed, 6 rose and 11 fell (held-out 2 and
    # 5), lists losing a paper a paraphrase names (bench/JUDGED.md).
    dense_weight: float = _doc("Weight of the dense (MiniLM) ranking in fusion.", 1.0)
    lexical_weight: float = _doc("Weight of the lexical (BM25) ranking in fusion.", 1.0)
    fusion: str = _doc(
        "How the dense and BM25 rankings are combined: rrf (reciprocal rank), minmax or zscore "
        "(weighted sum of normalised scores).",
        "rrf",
    )
    # Off by default: on the tuning part the second stage does not beat z-score fusion alone at any
    # weight (MRR 0.941 at 0.1 against 0.945 without), nor RRF past 0.1 (bench/FUSION.md).
    sentence_weight: float = _doc(
        "Weight of the second stage, which reorders the first stage's best 50 papers by how close the "
        "query is to their best sentences (title included); 0 = first stage only. Ingest embeds the "
        "sentences only when this is above 0.",
        0.0,
    )
    sentence_pooling: str = _doc(
        "Sentence score of a paper in the second stage: max (its best sentence) or top2 (mean of its best two).",
        "max",
    )
    gate_threshold: float = _doc(
        "Least cosine similarity of the best passage for an answer (lower passes only with an "
        "exact name or most question words in it); below it the assistant refuses.",
        0.33,
    )
    host: str = _doc("Address the chat binds to.", "127.0.0.1")
    port: int = _doc("Port the chat listens on.", 7860)
    refresh_seconds: float = _doc("How often the chat checks the index for papers another process ingested.", 30.0)
    auth: str = _doc("user:password to require a login for the chat and its API; empty = none.", "")

    def __post_init__(self) -> None:
        check(self)

    @classmethod
    def describe(cls) -> list[tuple[str, str, Any]]:
        """(env var, description, default) for every field, for help texts."""
        return [(ENV_PREFIX + f.name.upper(), f.metadata["doc"], f.default) for f in fields(cls)]

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None, **overrides: Any) -> Settings:
        """Build settings from ``ASSISTANT_*`` variables, then apply non-None overrides."""
        env = os.environ if environ is None else environ
        known = {f.name: f for f in fields(cls)}
        values: dict[str, Any] = {}
        for key, raw in env.items():
            if not key.startswith(ENV_PREFIX):
                continue
            name = key[len(ENV_PREFIX) :].lower()
            if name not in known:
                raise ConfigError(f"unknown setting {key}; known: {', '.join(sorted(k.upper() for k in known))}")
            values[name] = _coerce(name, known[name].default, raw)
        for name, value in overrides.items():
            if name not in known:
                raise ConfigError(f"unknown setting {name}")
            if value is not None:
                values[name] = _coerce(name, known[name].default, value)
        return replace(cls(), **values)


# The range each numeric setting may take; outside it a value is a mistake, not a choice (a
# negative rrf_k divides by zero, a negative top_k returns nearly every paper).
BOUNDS: dict[str, tuple[float, float | None]] = {
    "llm_timeout": (0.001, None),
    "llm_reply_seconds": (0.001, None),
    "llm_threads": (0, None),
    "max_tokens": (1, None),
    "top_k": (1, None),
    "max_query_chars": (1, None),
    "rrf_k": (0, None),
    "dense_weight": (0, None),
    "lexical_weight": (0, None),
    "sentence_weight": (0, 1),
    "gate_threshold": (-1, 1),
    "port": (1, 65535),
    "refresh_seconds": (0, None),
}


def check(settings: Settings) -> None:
    """Raise ConfigError, naming the flag and the variable, for the first value out of range."""
    for name, (low, high) in BOUNDS.items():
        value = getattr(settings, name)
        if isinstance(value, float) and not math.isfinite(value):
            raise ConfigError(f"setting {_names(name)} must be a finite number, not {value}")
        if value < low or (high is not None and value > high):
            allowed = f"from {low:g} to {high:g}" if high is not None else f"at least {low:g}"
            raise ConfigError(f"setting {_names(name)} must be {allowed}, not {value:g}")
    if settings.fusion not in ("rrf", "minmax", "zscore"):
        raise ConfigError(f"setting {_names('fusion')} must be rrf, minmax or zscore, not {settings.fusion!r}")
    if settings.sentence_pooling not in ("max", "top2"):
        raise ConfigError(
            f"setting {_names('sentence_pooling')} must be max or top2, not {settings.sentence_pooling!r}"
        )
    user, sep, password = settings.auth.partition(":")
    if settings.auth and not (sep and user.strip() and password):
        # The value holds a password: it is not echoed.
        raise ConfigError(f"setting {_names('auth')} must look like user:password, with a user name and a password")


def _names(name: str) -> str:
    return f"{name} (--{name.replace('_', '-')} / {ENV_PREFIX}{name.upper()})"


def _coerce(name: str, default: Any, raw: Any) -> Any:
    """Convert a raw env/flag value to the type of the field's default."""
    try:
        if isinstance(default, Path):
            return Path(raw).expanduser()
        if isinstance(default, bool):
            return str(raw).lower() in {"1", "true", "yes", "on"}
        if isinstance(default, int):
            return int(raw)
        if isinstance(default, float):
            return float(raw)
        return str(raw)
    except (TypeError, ValueError) as exc:
        raise ConfigError(f"setting {name}: cannot use {raw!r} ({exc})") from exc
