"""The in-process model keeps the system prompt evaluated: every answer's prompt opens with it, so only
what follows it is evaluated, and the reply is the same text as from a cleared cache."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from assistant.answer import Assistant
from assistant.config import Settings
from assistant.llm import LlamaCppLLM, fixed_prefix, resolve_model_path
from tests.doubles import ScriptedLLM
from tests.test_answer import A, B, FakeRetriever


def test_every_answer_prompt_opens_with_the_fixed_prefix() -> None:
    """Variable content (passages, question) after the fixed part, never before it: else nothing is shared."""
    settings = Settings.from_env({})
    assistant = Assistant(FakeRetriever([A, B]), lambda: ScriptedLLM(), settings)  # type: ignore[arg-type]
    prefix = fixed_prefix()
    for question, passages in (("How does LookFast work?", [A]), ("What error does it reduce?", [B, A])):
        messages = assistant.prompt_messages(question, passages)
        assert messages[: len(prefix)] == prefix
        assert question in messages[-1]["content"]


def _messages(question: str, passage: str) -> list[dict[str, str]]:
    return [*fixed_prefix(), {"role": "user", "content": f"Sources:\n[1] {passage}\n\nQuestion: {question}"}]


def _evaluated(llm: LlamaCppLLM, messages: Sequence[dict[str, str]], max_tokens: int) -> tuple[str, int]:
    """The reply, and how many prompt tokens llama.cpp evaluated for it (its first eval call)."""
    sizes: list[int] = []
    original = llm.model.eval

    def counting(tokens: Sequence[int]) -> None:
        sizes.append(len(tokens))
        original(tokens)

    llm.model.eval = counting  # type: ignore[method-assign]
    try:
        text = "".join(llm.stream(messages, max_tokens))
    finally:
        llm.model.eval = original  # type: ignore[method-assign]
    return text, sizes[0]


@pytest.mark.real
def test_prefilled_model_evaluates_only_what_follows_the_system_prompt_and_writes_the_same() -> None:
    llm = LlamaCppLLM(resolve_model_path(""), n_ctx=512, prefix=fixed_prefix())
    prefilled = llm.model.n_tokens
    assert prefilled > 50  # the system prompt alone is 84 tokens with the packaged model
    first = _messages("How much faster is LookFast?", A.text)
    warm_text, warm_count = _evaluated(llm, first, 16)
    # The next answer, about another paper: again only what follows the system prompt.
    second = _messages("By how much does the mechanism reduce error?", B.text)
    next_text, next_count = _evaluated(llm, second, 16)
    llm.model.reset()  # a cleared cache: the whole prompt is evaluated
    cold_text, cold_count = _evaluated(llm, first, 16)
    llm.model.reset()
    cold_next_text, cold_next_count = _evaluated(llm, second, 16)
    # All but the chat template's few tokens after the prefix (the empty user turn) are reused.
    assert cold_count - warm_count >= prefilled - 8
    assert cold_next_count - next_count >= prefilled - 8
    assert (warm_text, next_text) == (cold_text, cold_next_text) and warm_text.strip()
