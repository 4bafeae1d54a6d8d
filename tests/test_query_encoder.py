"""Queries run MiniLM through numpy: the same vectors as sentence-transformers, without torch."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from assistant.config import PROJECT_ROOT
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


@pytest.mark.real
def test_cold_search_does_not_import_torch(tmp_path: Path) -> None:
    source = tmp_path / "papers.jsonl"
    source.write_text("\n".join(json.dumps({"paper_id": f"p{n}", "title": title, "abstract": abstract}) for n, (
        title, abstract) in enumerate([
            ("Fast decoding", "We speed up language model decoding with speculative drafts verified in parallel."),
            ("Marsupial census", "We count kangaroos from aerial photographs with a convolutional network."),
            ("Private learning", "We train models with differential privacy guarantees on medical records."),
        ])) + "\n", encoding="utf-8")
    data = tmp_path / "data"
    env = {k: v for k, v in os.environ.items() if not k.startswith("ASSISTANT_")}
    subprocess.run([sys.executable, "-m", "assistant", "ingest", str(source), "--data-dir", str(data)],
                   cwd=PROJECT_ROOT, env=env, check=True, capture_output=True, timeout=600)
    probe = ("import json, sys; from assistant.cli import main; code = main(sys.argv[1:]); "
             "print(json.dumps(sorted(m for m in ('torch', 'sentence_transformers') if m in sys.modules)), "
             "file=sys.stderr); sys.exit(code)")
    done = subprocess.run([sys.executable, "-c", probe, "search", "faster LLM decoding", "--json", "--data-dir",
                           str(data)], cwd=PROJECT_ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)[0]["title"] == "Fast decoding"
    assert json.loads(done.stderr.strip().splitlines()[-1]) == []
