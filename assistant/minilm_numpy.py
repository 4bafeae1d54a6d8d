"""all-MiniLM-L6-v2's forward pass in numpy, for queries.

sentence-transformers needs torch, whose import takes about 6 s cold on 2 cores; a query is
one short text through a 6-layer, 384-wide BERT, a few milliseconds of matrix products. So
queries run here, from the same safetensors weights and tokenizer.json, with the same mean
pooling and L2 normalisation; ingest keeps sentence-transformers for its batches.
``tests/test_query_encoder.py`` checks that both give the same vectors (cosine >= 0.9999).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

import numpy as np
from safetensors.numpy import load_file
from tokenizers import Tokenizer

from assistant.errors import AssistantError


class UnsupportedModel(AssistantError, ValueError):
    """The folder holds a model this encoder does not implement (use sentence-transformers)."""


def _read_json(path: Path) -> dict:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise UnsupportedModel(f"cannot read {path}: {exc}") from exc


def _erf(x: np.ndarray) -> np.ndarray:
    """Abramowitz & Stegun 7.1.26: |error| < 1.5e-7, far below float32 noise after LayerNorm."""
    sign = np.sign(x)
    a = np.abs(x)
    t = 1.0 / (1.0 + 0.3275911 * a)
    poly = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))))
    return sign * (1.0 - poly * np.exp(-a * a))


def _gelu(x: np.ndarray) -> np.ndarray:
    """BERT's exact (erf) GELU."""
    return 0.5 * x * (1.0 + _erf(x / np.sqrt(np.float32(2.0))))


def _layer_norm(x: np.ndarray, weight: np.ndarray, bias: np.ndarray, eps: float) -> np.ndarray:
    mean = x.mean(-1, keepdims=True)
    var = ((x - mean) ** 2).mean(-1, keepdims=True)
    return (x - mean) / np.sqrt(var + eps) * weight + bias


class NumpyBert:
    """A BERT sentence encoder (absolute positions, GELU, mean pooling) run with numpy."""

    def __init__(self, model_dir: Path) -> None:
        config = _read_json(model_dir / "config.json")
        pooling = _read_json(model_dir / "1_Pooling" / "config.json")
        if (
            config.get("model_type") != "bert"
            or config.get("hidden_act") != "gelu"
            or config.get("position_embedding_type", "absolute") != "absolute"
        ):
            raise UnsupportedModel(f"{model_dir} is not a plain BERT model")
        if not pooling.get("pooling_mode_mean_tokens") or any(
            v for k, v in pooling.items() if k.startswith("pooling_mode_") and k != "pooling_mode_mean_tokens"
        ):
            raise UnsupportedModel(f"{model_dir} does not use mean pooling alone")
        weights_path = model_dir / "model.safetensors"
        if not weights_path.is_file():
            raise UnsupportedModel(f"{weights_path} is missing")
        self.heads = int(config["num_attention_heads"])
        self.layers = int(config["num_hidden_layers"])
        self.eps = float(config.get("layer_norm_eps", 1e-12))
        self.max_length = int(_read_json(model_dir / "sentence_bert_config.json").get("max_seq_length", 256))
        self.tokenizer = Tokenizer.from_file(str(model_dir / "tokenizer.json"))
        self.tokenizer.no_padding()  # the shipped tokenizer.json pads to a fixed length; we pad per batch
        self.tokenizer.enable_truncation(self.max_length)
        self.w = {
            name: np.ascontiguousarray(value.T) if value.ndim == 2 and ".layer." in name else value
            for name, value in load_file(str(weights_path)).items()
        }
        self.dimension = int(config["hidden_size"])

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        """L2-normalised mean-pooled embeddings, one float32 row per text."""
        if not texts:
            return np.zeros((0, self.dimension), dtype=np.float32)
        encodings = self.tokenizer.encode_batch(list(texts))
        length = max(len(e.ids) for e in encodings)
        ids = np.zeros((len(texts), length), dtype=np.int64)
        mask = np.zeros((len(texts), length), dtype=np.float32)
        types = np.zeros((len(texts), length), dtype=np.int64)
        for row, e in enumerate(encodings):
            ids[row, : len(e.ids)] = e.ids
            mask[row, : len(e.ids)] = 1.0
            types[row, : len(e.ids)] = e.type_ids
        hidden = self._forward(ids, types, mask)
        pooled = (hidden * mask[:, :, None]).sum(1) / np.maximum(mask.sum(1, keepdims=True), 1e-9)
        norms = np.linalg.norm(pooled, axis=1, keepdims=True)
        return (pooled / np.maximum(norms, 1e-12)).astype(np.float32)

    def _forward(self, ids: np.ndarray, types: np.ndarray, mask: np.ndarray) -> np.ndarray:
        w, eps = self.w, self.eps
        batch, length = ids.shape
        x = (
            w["embeddings.word_embeddings.weight"][ids]
            + w["embeddings.position_embeddings.weight"][:length]
            + w["embeddings.token_type_embeddings.weight"][types]
        )
        x = _layer_norm(x, w["embeddings.LayerNorm.weight"], w["embeddings.LayerNorm.bias"], eps)
        head = self.dimension // self.heads
        bias = ((1.0 - mask) * np.finfo(np.float32).min)[:, None, None, :]  # padding gets no attention

        def split(t: np.ndarray) -> np.ndarray:
            return t.reshape(batch, length, self.heads, head).transpose(0, 2, 1, 3)

        for n in range(self.layers):
            p = f"encoder.layer.{n}."
            q = split(x @ w[p + "attention.self.query.weight"] + w[p + "attention.self.query.bias"])
            k = split(x @ w[p + "attention.self.key.weight"] + w[p + "attention.self.key.bias"])
            v = split(x @ w[p + "attention.self.value.weight"] + w[p + "attention.self.value.bias"])
            scores = q @ k.transpose(0, 1, 3, 2) / np.float32(np.sqrt(head)) + bias
            scores = np.exp(scores - scores.max(-1, keepdims=True))
            context = (scores / scores.sum(-1, keepdims=True)) @ v
            context = context.transpose(0, 2, 1, 3).reshape(batch, length, self.dimension)
            attended = context @ w[p + "attention.output.dense.weight"] + w[p + "attention.output.dense.bias"]
            x = _layer_norm(
                attended + x, w[p + "attention.output.LayerNorm.weight"], w[p + "attention.output.LayerNorm.bias"], eps
            )
            inner = _gelu(x @ w[p + "intermediate.dense.weight"] + w[p + "intermediate.dense.bias"])
            out = inner @ w[p + "output.dense.weight"] + w[p + "output.dense.bias"]
            x = _layer_norm(out + x, w[p + "output.LayerNorm.weight"], w[p + "output.LayerNorm.bias"], eps)
        return x
