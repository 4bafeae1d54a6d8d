"""Sentences the packaged model drafts for the eval questions, to be labelled by reading.

For questions of ``tests/eval/questions.jsonl`` and turns of ``tests/eval/conversations.jsonl``
the model gets the prompt answering uses (``prompts/``), shown ONE paper at a time: for a
comparison, a follow-up or a list, each paper the question is about (the compared papers, the
papers in focus, the listed papers; at most ``PER_QUESTION``), else the best passage. One paper per
prompt makes every drafted sentence a claim about a known abstract, cited or not, so a reader can
label it against that abstract. Labels are added by hand (``tests/eval/faithfulness.jsonl``),
never by the checker.

    python bench/draft_sentences.py OUT.jsonl [--limit N]
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from assistant.answer import Assistant  # noqa: E402
from assistant.citations import draft_sentences, markers  # noqa: E402
from assistant.build import open_assistant  # noqa: E402
from assistant.config import Settings  # noqa: E402
from assistant.shapes import without_injections  # noqa: E402

EVAL = ROOT / "tests" / "eval"
PER_QUESTION = 2  # papers drafted for per list / comparison / follow-up question
MIN_WORDS = 4  # shorter pieces ("[1] Title") state nothing to label


def papers_for(assistant: Assistant, question: str, history: list[str]) -> tuple[list, str]:
    """The papers a question is about, as answering would pick them, and the question's kind."""
    plan = assistant.plan(question, history)
    several = plan.intent.kind in ("list", "compare", "attribute") or bool(plan.focus)
    papers = (plan.focus or plan.hits)[:PER_QUESTION] if several else plan.hits[:1]
    return [without_injections(h) for h in papers], plan.intent.kind


def main() -> None:
    out = open(sys.argv[1], "w", encoding="utf-8")
    limit = int(sys.argv[sys.argv.index("--limit") + 1]) if "--limit" in sys.argv else None
    assistant = open_assistant(Settings())
    items: list[tuple[str, str, list[str], str]] = []
    for line in open(EVAL / "questions.jsonl", encoding="utf-8"):
        q = json.loads(line)
        if q["gold"] and q.get("index") != "catalogue":  # drafted over the seeds index
            items.append((q["id"], q["question"], q.get("history", []), "multi" if q["history"] or q["kind"] == "two_papers"
                          else "single"))
    for line in open(EVAL / "conversations.jsonl", encoding="utf-8"):
        c = json.loads(line)
        earlier: list[str] = []
        for t, turn in enumerate(c["turns"], 1):
            if turn["gold"]:
                items.append((f"{c['id']}.{t}", turn["question"], list(earlier), "multi"))
            earlier.append(turn["question"])
    for source, question, history, group in items[:limit]:
        papers, kind = papers_for(assistant, question, history)
        for hit in papers:
            draft = "".join(assistant.llm.stream(assistant.prompt_messages(question, [hit]), assistant.settings.max_tokens))
            for sentence, complete in draft_sentences(draft):
                claim, _keys = markers(sentence)
                if len(claim.split()) < MIN_WORDS:
                    continue
                out.write(json.dumps({"source": source, "kind": kind, "group": group, "question": question,
                                      "sentence": sentence, "claim": claim, "complete": complete,
                                      "paper_id": hit.paper_id, "title": hit.title}, ensure_ascii=False) + "\n")
            out.flush()


if __name__ == "__main__":
    main()
