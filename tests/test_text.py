"""Sentence splitting, chunking, settings and error messages."""

from __future__ import annotations

import errno

import pytest

from assistant.chunking import CHUNK_TOKENS, TITLE_TOKENS, WINDOW_TOKENS, chunk_abstract, embedding_text
from assistant.config import ConfigError, Settings
from assistant.errors import AssistantError, describe
from assistant.llm import LLMError
from assistant.retrieval import QueryError
from assistant.store import StoreError
from assistant.text import split_sentences


def words(text: str) -> int:
    return len(text.split())


def test_sentences_keep_offsets_and_abbreviations() -> None:
    text = "We use e.g. transformers, cf. Smith et al. in 2020. Results improve by 3.5%. Done!"
    sentences = split_sentences(text)
    assert [s.text for s in sentences] == [
        "We use e.g. transformers, cf. Smith et al. in 2020.", "Results improve by 3.5%.", "Done!"]
    assert all(text[s.start:s.end] == s.text for s in sentences)


def test_chunks_cover_the_abstract_within_budget() -> None:
    abstract = " ".join(f"Sentence number {i} talks about topic {i % 7} in some detail." for i in range(80))
    chunks = chunk_abstract("p", abstract, count=words, budget=40)
    assert len(chunks) > 1
    assert all(words(c.text) <= 40 for c in chunks)
    assert [c.chunk_id for c in chunks] == [f"p::{i}" for i in range(len(chunks))]
    # Every word of the abstract is in some chunk, in order, with exact offsets.
    assert " ".join(c.text for c in chunks).split() == abstract.split()
    assert all(abstract[c.start:c.end] == c.text for c in chunks)


def test_overlong_sentence_is_cut_not_lost() -> None:
    abstract = " ".join(f"w{i}" for i in range(100)) + "."
    chunks = chunk_abstract("p", abstract, count=words, budget=30)
    assert all(words(c.text) <= 30 for c in chunks)
    assert " ".join(c.text for c in chunks).split() == abstract.split()


def test_real_tokenizer_budget_fits_the_window() -> None:
    assert CHUNK_TOKENS + TITLE_TOKENS + 2 < WINDOW_TOKENS
    title = "A very long title " * 20
    assert len(embedding_text(title, "x").split()) < len(title.split())


def test_settings_from_env_and_unknown_keys() -> None:
    s = Settings.from_env({"ASSISTANT_TOP_K": "7", "ASSISTANT_DATA_DIR": "/tmp/x"}, dense_weight=0.5)
    assert s.top_k == 7 and str(s.data_dir) == "/tmp/x" and s.dense_weight == 0.5
    with pytest.raises(ConfigError, match="unknown setting ASSISTANT_TOPK"):
        Settings.from_env({"ASSISTANT_TOPK": "7"})
    with pytest.raises(ConfigError, match="top_k"):
        Settings.from_env({"ASSISTANT_TOP_K": "many"})


@pytest.mark.parametrize("value", ["nopassword", ":", "user:", ":pw", " :pw"])
def test_a_malformed_auth_is_a_one_line_settings_error_that_hides_the_password(value: str) -> None:
    with pytest.raises(ConfigError, match="must look like user:password") as caught:
        Settings.from_env({"ASSISTANT_AUTH": value})
    assert "\n" not in str(caught.value) and "nopassword" not in str(caught.value)
    assert Settings.from_env({"ASSISTANT_AUTH": "alice:s3cret:with colon"}).auth == "alice:s3cret:with colon"


def test_every_project_error_shares_one_root_and_reads_as_one_line() -> None:
    """A known failure is one line for the user; anything else is a bug that keeps its traceback."""
    for kind in (ConfigError, LLMError, QueryError, StoreError):
        assert issubclass(kind, AssistantError) and describe(kind("the index is locked")) == "the index is locked"
    assert "no space left" in (describe(OSError(errno.ENOSPC, "full")) or "")
    assert describe(KeyError("bug")) is None


def test_a_question_closed_by_emphasis_ends_its_sentence() -> None:
    text = "This raises a question: *Is there a faster attention?* This paper proposes PiT. It works."
    assert [s.text for s in split_sentences(text)] == [
        "This raises a question: *Is there a faster attention?*", "This paper proposes PiT.", "It works."]
