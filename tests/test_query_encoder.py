"""Queries run MiniLM through numpy: the same vectors as sentence-transformers, without torch."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from assistant.embedding import (PACKAGED_MODEL_NAME, HashEmbedder, MiniLMEmbedder, NumpyMiniLMEmbedder,
                                 load_query_embedder)
from assistant.minilm_numpy import NumpyBert, UnsupportedModel

TEXTS = [
    "speculative decoding",
    "How does Lookahead decoding speed up LLM inference?",
    "Which papers did Moritz Hardt write?",
    "Übermäßige Akzente: naïve café, 3.5× faster",
    "x",
    "We propose a method that reads long documents. " * 60,  # beyond the 256-token window: truncated
]


@pytest.mark.real
def test_numpy_and_sentence_transformers_give_the_same_vectors() -> None:
    reference = MiniLMEmbedder().embed(TEXTS)
    numpy_model = NumpyMiniLMEmbedder()
    assert numpy_model.name == PACKAGED_MODEL_NAME
    batch = numpy_model.embed(TEXTS)
    one_by_one = np.vstack([numpy_model.embed([text]) for text in TEXTS])
    assert batch.shape == reference.shape == (len(TEXTS), 384)
    assert np.all((batch * reference).sum(1) >= 0.9999)
    assert np.all((one_by_one * reference).sum(1) >= 0.9999)
    assert np.allclose(np.linalg.norm(batch, axis=1), 1.0, atol=1e-5)
    assert numpy_model.embed([]).shape == (0, 384)


def test_other_models_are_left_to_sentence_transformers(tmp_path: Path) -> None:
    (tmp_path / "1_Pooling").mkdir()
    (tmp_path / "config.json").write_text(json.dumps({"model_type": "roberta", "hidden_act": "gelu"}))
    (tmp_path / "1_Pooling" / "config.json").write_text(json.dumps({"pooling_mode_mean_tokens": True}))
    with pytest.raises(UnsupportedModel):
        NumpyBert(tmp_path)
    (tmp_path / "config.json").write_text(json.dumps({"model_type": "bert", "hidden_act": "gelu"}))
    (tmp_path / "1_Pooling" / "config.json").write_text(json.dumps({"pooling_mode_cls_token": True}))
    with pytest.raises(UnsupportedModel):
        NumpyBert(tmp_path)
    assert isinstance(load_query_embedder("hash"), HashEmbedder)
