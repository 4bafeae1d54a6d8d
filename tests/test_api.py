"""The Gradio API that comes with the app, called from gradio_client."""

from __future__ import annotations

import pytest

from bench.servers import message_text

pytestmark = pytest.mark.real


def test_chat_endpoint_answers_with_citations(app_url: str) -> None:
    from gradio_client import Client

    client = Client(app_url, verbose=False)
    chat, sources, trace, box = client.predict("What is ReadAgent?", [], api_name="/chat")
    answer = message_text(chat[-1]["content"])
    assert 'class="cite"' in answer
    assert "ReadAgent" in sources and "mark" in sources
    assert trace["passages"] and trace["rewritten_query"] == "What is ReadAgent?"
    assert box == ""  # the question box is cleared; per-session state is not part of the API
