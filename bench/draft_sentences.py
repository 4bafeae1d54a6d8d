"""Sentences the packaged model drafts for the eval questions, to be labelled by reading.

For every question of ``tests/eval/questions.jsonl`` and every turn of
``tests/eval/conversations.jsonl`` the model gets the prompt answering uses (``prompts/``),
shown the papers the question is about: the compared papers, the papers in focus of a
follow-up, the listed papers of a list question, else the best passages. Each drafted
sentence that cites a source is written with the paper it cites; labels are added by hand
(``tests/eval/faithfulness.jsonl``), never by the checker.

    python bench/draft_sentences.py OUT.jsonl
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from assistant.answer import Assistant  # noqa: E402
from assistant.citations import draft_sentences, markers  # noqa: E402
from assistant.cli import open_assistant  # noqa: E402
from assistant.config import Settings  # noqa: E402
from assistant.shapes import without_injections  # noqa: E402

EVAL = ROOT / "tests" / "eval"
SHOWN = 3  # papers shown to the model per prompt (list and comparison prompts show several)


def drafts(assistant: Assistant, question: str, history: list[dict]) -> tuple[str, list, str]:
    """(draft, passages shown, question kind) for one question."""
    plan = assistant.plan(question, history)
    papers = plan.focus if plan.focus else plan.hits
    passages = [without_injections(h) for h in papers[:SHOWN]]
    if not passages:
        return "", [], plan.intent.kind
    draft = "".join(assistant.llm.stream(assistant._messages(question, passages), assistant.settings.max_tokens))
    return draft, passages, plan.intent.kind


def main() -> None:
    out = open(sys.argv[1], "w", encoding="utf-8")
    assistant = open_assistant(Settings())
    items: list[tuple[str, str, list[str]]] = []
    for line in open(EVAL / "questions.jsonl", encoding="utf-8"):
        q = json.loads(line)
        items.append((q["id"], q["question"], q.get("history", [])))
    for line in open(EVAL / "conversations.jsonl", encoding="utf-8"):
        c = json.loads(line)
        earlier: list[str] = []
        for t, turn in enumerate(c["turns"], 1):
            items.append((f"{c['id']}.{t}", turn["question"], list(earlier)))
            earlier.append(turn["question"])
    for source, question, history in items:
        draft, passages, kind = drafts(assistant, question, history)
        for sentence, _complete in draft_sentences(draft):
            claim, keys = markers(sentence)
            valid = [k for k in keys if 1 <= k <= len(passages)]
            if not claim or not valid:
                continue
            hit = passages[valid[0] - 1]
            out.write(json.dumps({"source": source, "kind": kind, "question": question, "sentence": sentence,
                                  "claim": claim, "paper_id": hit.paper_id, "title": hit.title}, ensure_ascii=False) + "\n")
        out.flush()


if __name__ == "__main__":
    main()
