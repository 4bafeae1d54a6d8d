"""Conversations kept in the browser: the stored value's shape, order, limit and odd values."""

from __future__ import annotations

from assistant import conversations


def turn(question: str) -> dict:
    return {"question": question, "answer": {"answer": "A [1].", "citations": []}}


def chat(question: str) -> list[dict]:
    return [{"role": "user", "content": question}, {"role": "assistant", "content": "A"}]


def test_saved_conversation_is_current_and_first() -> None:
    store, first = conversations.save(conversations.EMPTY, "", chat("What is ReadAgent?"), [turn("What is ReadAgent?")])
    store, second = conversations.save(store, "", chat("Who wrote it?"), [turn("Who wrote it?")])
    assert first and second and first != second
    assert conversations.current(store)["id"] == second
    assert [t for t, _ in conversations.choices(store)] == ["Who wrote it?", "What is ReadAgent?"]
    store, again = conversations.save(store, first, chat("What is ReadAgent?") * 2, [turn("What is ReadAgent?")] * 2)
    assert again == first and conversations.choices(store)[0][1] == first and len(store["chats"]) == 2


def test_only_a_short_list_is_kept_and_empty_chats_are_not() -> None:
    store = conversations.EMPTY
    for n in range(conversations.KEEP + 3):
        store, _ = conversations.save(store, "", chat(f"q{n}"), [turn(f"q{n}")])
    assert len(store["chats"]) == conversations.KEEP
    assert conversations.save(store, "", [], [])[0]["chats"] == store["chats"]


def test_new_chat_and_choosing_an_earlier_one() -> None:
    store, first = conversations.save(conversations.EMPTY, "", chat("q1"), [turn("q1")])
    assert conversations.current(conversations.choose(store, None)) is None
    assert conversations.current(conversations.choose(store, first))["chat"] == chat("q1")
    assert conversations.current(conversations.choose(store, "gone")) is None


def test_odd_stored_values_read_as_empty() -> None:
    for value in (None, "test", [], {"chats": "x"}, {"chats": [{"id": 3}]}):
        assert conversations.choices(value) == [] and conversations.current(value) is None


def test_title_is_the_first_question_shortened() -> None:
    long = "word " * 40
    title = conversations.title([turn(long)], [])
    assert len(title) <= conversations.TITLE_CHARS and title.endswith("…")
    assert conversations.title([], [{"role": "user", "content": [{"type": "text", "text": "Hi  there"}]}]) == "Hi there"
