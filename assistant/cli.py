"""Command line: ``assistant ingest | search | status | eval | ask | serve``.

Flags and JSON shapes here are a public interface; keep them stable.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from dataclasses import fields
from pathlib import Path
from typing import Any

from assistant import evaluation
from assistant.build import open_assistant, open_index, open_retriever
from assistant.config import ConfigError, Settings
from assistant.errors import UserError, describe
from assistant.ingest import ingest
from assistant.llm import LLMError
from assistant.retrieval import QueryError

EXIT_USAGE = 2
EXIT_FAILURE = 1


def _settings_parent() -> argparse.ArgumentParser:
    """Flags for every setting, shared by all subcommands (env var in the help text)."""
    parent = argparse.ArgumentParser(add_help=False)
    group = parent.add_argument_group("settings (each also read from the environment variable shown)")
    for f in fields(Settings):
        flag = "--" + f.name.replace("_", "-")
        env = "ASSISTANT_" + f.name.upper()
        group.add_argument(
            flag,
            dest=f"setting_{f.name}",
            default=None,
            metavar=f.name.upper(),
            help=f"{f.metadata['doc']} [{env}; default: {f.default}]",
        )
    return parent


def build_parser() -> argparse.ArgumentParser:
    """The full argument parser."""
    parent = _settings_parent()
    env_help = "\n".join(f"  {env:<28} {doc}" for env, doc, _ in Settings.describe())
    parser = argparse.ArgumentParser(
        prog="assistant",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Offline assistant for ICML 2024 papers: hybrid search and cited answers on a CPU.",
        epilog="Settings (environment variables; each has the matching --flag on every subcommand):\n" + env_help,
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    p = sub.add_parser("ingest", parents=[parent], help="add or update papers from files (default: seeds/)")
    p.add_argument("paths", nargs="*", type=Path, metavar="PATH", help="files or folders (.txt .md .json .jsonl .csv)")
    p.add_argument("--json", action="store_true", help="print the report as JSON")

    p = sub.add_parser("search", parents=[parent], help="hybrid search; one hit per paper")
    p.add_argument("query", nargs="?", help="the query; none = one query per line on stdin, JSON Lines out")
    p.add_argument("-k", type=int, default=None, help="number of papers (default: top_k)")
    p.add_argument("--json", action="store_true", help="print a JSON array of hits")
    p.add_argument("--author", help="only papers with an author matching this text")
    p.add_argument("--area", help="only papers whose subject area contains this text")

    p = sub.add_parser("status", parents=[parent], help="what the index holds")
    p.add_argument("--json", action="store_true", help="print JSON")

    p = sub.add_parser("ask", parents=[parent], help="a cited answer from the indexed papers")
    p.add_argument("question", nargs="?", help="the question; none = one request per line on stdin, JSON Lines out")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--model", dest="setting_model_path", metavar="PATH", help="GGUF model file [ASSISTANT_MODEL_PATH]")

    p = sub.add_parser("serve", parents=[parent], help="open the chat in the browser (Gradio)")

    p = sub.add_parser("eval", parents=[parent], help="evaluate retrieval (and answers) on tests/eval")
    p.add_argument("--retrieval", action="store_true", help="retrieval metrics only")
    p.add_argument("--questions", type=Path, default=None, help="questions file (JSON Lines)")
    p.add_argument("--catalogue", type=Path, default=None, help="catalogue JSON for the large index")
    p.add_argument("--title-check", action="store_true", help="also run the exact-title check over the catalogue")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.add_argument(
        "--answers-out",
        type=Path,
        default=None,
        metavar="FILE",
        help="write every answer (questions and conversation turns) as JSON Lines, for reading",
    )
    return parser


def settings_from_args(args: argparse.Namespace) -> Settings:
    """Settings from the environment, overridden by any flag given."""
    overrides = {k[len("setting_") :]: v for k, v in vars(args).items() if k.startswith("setting_")}
    return Settings.from_env(**overrides)


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``assistant`` console script."""
    parser = build_parser()
    args = parser.parse_args(argv)
    handlers: dict[str, Callable[[argparse.Namespace, Settings], int]] = {
        "ingest": cmd_ingest,
        "search": cmd_search,
        "status": cmd_status,
        "eval": cmd_eval,
        "ask": cmd_ask,
        "serve": cmd_serve,
    }
    try:
        settings = settings_from_args(args)
        return handlers[args.command](args, settings)
    except (UserError, ConfigError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except Exception as exc:  # known failure types become one readable line
        message = describe(exc)
        if message is None:
            raise
        print(f"error: {message}", file=sys.stderr)
        return EXIT_FAILURE


def _print_json(data: Any) -> None:
    print(json.dumps(data, ensure_ascii=False))


def cmd_ingest(args: argparse.Namespace, settings: Settings) -> int:
    """``assistant ingest [PATH ...]``."""
    paths = args.paths or [settings.seeds_dir]
    report = ingest(paths, settings).to_dict()
    if args.json:
        _print_json(report)
    else:
        p, c = report["papers"], report["chunks"]
        print(f"files: {report['files']}")
        print(
            f"papers: {p['added']} added, {p['updated']} updated, {p['unchanged']} unchanged, {p['rejected']} rejected"
        )
        print(f"chunks: {c['added']} added, {c['updated']} updated, {c['unchanged']} unchanged")
        if report["skipped_events"]:
            print("skipped (not papers): " + ", ".join(f"{n} {k}" for k, n in sorted(report["skipped_events"].items())))
        for r in report["rejected"]:
            print(f"rejected: {r['where']}: {r['reason']}")
    p = report["papers"]
    if p["added"] + p["updated"] + p["unchanged"] == 0:  # asked to ingest, and nothing was
        reason = "every input was rejected or missing" if report["rejected"] else "no papers were found in the inputs"
        print(f"error: nothing was ingested: {reason}", file=sys.stderr)
        return EXIT_FAILURE
    return 0


def cmd_search(args: argparse.Namespace, settings: Settings) -> int:
    """``assistant search [QUERY]``; without QUERY, JSON Lines over stdin."""
    if args.query is not None and not args.query.strip():
        raise UserError("the query is empty: type a question or some keywords")
    if args.k is not None and args.k < 1:
        raise UserError(f"-k must be at least 1, not {args.k}")
    retriever = open_retriever(settings)
    if args.query is None:
        return _json_lines(
            lambda line: [h.to_dict() for h in retriever.search(line, args.k, args.author, args.area)], (QueryError,)
        )
    try:
        hits = retriever.search(args.query, args.k, args.author, args.area)
    except QueryError as exc:
        raise UserError(str(exc)) from None
    if args.json:
        _print_json([h.to_dict() for h in hits])
        return 0
    if not hits:
        print("no papers found" + (" with those filters" if args.author or args.area else ""))
    for h in hits:
        authors = ", ".join(h.authors[:4]) + (" et al." if len(h.authors) > 4 else "")
        print(f"{h.rank}. {h.title}  [{h.paper_id}]  score {h.score:.4f}")
        print(f"   {authors}" + (f"  ·  {h.area}" if h.area else ""))
        print(f"   {h.url}" if h.url else "", end="\n" if h.url else "")
        print(f"   \u201c{_shorten(h.text, 240)}\u201d")
    return 0


def _json_lines(handle: Callable[[str], Any], expected: tuple[type[Exception], ...]) -> int:
    """One JSON line out per non-blank line in; an expected failure becomes {"error": ...} and the loop goes on."""
    failures = 0
    for line in sys.stdin:
        if not line.strip():
            continue
        try:
            _print_json(handle(line))
        except expected as exc:
            failures += 1
            _print_json({"error": str(exc)})
        sys.stdout.flush()
    return EXIT_FAILURE if failures else 0


def _shorten(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[:limit].rsplit(" ", 1)[0] + " …"


def cmd_status(args: argparse.Namespace, settings: Settings) -> int:
    """``assistant status``."""
    status = open_index(settings).status() | {"data_dir": str(settings.data_dir)}
    if args.json:
        _print_json(status)
        return 0
    d, l = status["dense"], status["lexical"]
    print(f"data dir:        {status['data_dir']}")
    print(f"dense index:     {d['papers']} papers, {d['chunks']} chunks  ({status['store']})")
    print(
        f"lexical index:   {l['papers']} papers, {l['chunks']} chunks  (built {status['lexical_built_at'] or 'never'})"
    )
    print(f"consistent:      {'yes' if status['consistent'] else 'NO'}")
    sv = status["sentence_vectors"]
    print(
        f"sentence vectors: {sv['papers']} papers, {sv['sentences']} sentences"
        if "papers" in sv
        else f"sentence vectors: {sv['problem']}"
    )
    print(f"embedding model: {status['embedding_model'] or '(none yet)'}")
    print(f"last ingest:     {status['last_ingest'] or 'never'}")
    return 0


def _request(line: str) -> tuple[str, list[Any]]:
    """A stdin request: a plain question, or {"question": ..., "history": [...]}."""
    stripped = line.strip()
    if stripped.startswith("{"):
        try:
            data = json.loads(stripped)
        except json.JSONDecodeError as exc:
            raise UserError(f"request is not valid JSON: {exc.msg}") from None
        if not isinstance(data, dict) or not isinstance(data.get("question"), str):
            raise UserError('a JSON request needs a "question" string')
        history = data.get("history") or []
        if not isinstance(history, list):
            raise UserError('"history" must be a list of earlier questions')
        return data["question"], [h for h in map(_history_item, history) if h is not None]
    return stripped, []


def _history_item(item: Any) -> Any:
    """One stdin history item, its nulls dropped (a null would otherwise reach the
    conversation as the text "None"); anything but a question or an answer object is refused."""
    if item is None or isinstance(item, str):
        return item
    if not isinstance(item, dict):
        raise UserError('each "history" item must be an earlier question (a string) or an earlier answer (an object)')
    question = item.get("question")
    if question is not None and not isinstance(question, str):
        raise UserError('"question" in a "history" item must be a string')
    out: dict[str, Any] = {"question": question or ""}
    for key in ("citations", "focus"):
        papers = item.get(key) or []
        if not isinstance(papers, list):
            raise UserError(f'"{key}" in a "history" item must be a list of papers')
        out[key] = [
            {"paper_id": str(p["paper_id"]), "title": p.get("title") or ""}
            | ({"selected": True} if p.get("selected") is True else {})
            | ({"closest": True} if p.get("closest") is True else {})  # named by a refusal, in no focus
            for p in papers
            if isinstance(p, dict)
            and isinstance(p.get("paper_id"), (str, int))
            and isinstance(p.get("title") or "", str)
        ]
    return out


def cmd_ask(args: argparse.Namespace, settings: Settings) -> int:
    """``assistant ask [QUESTION]``; without QUESTION, JSON Lines over stdin."""
    if args.question is not None and not args.question.strip():
        raise UserError("the question is empty: type a question about the papers")
    assistant = open_assistant(settings)
    if args.question is None:
        return _json_lines(lambda line: assistant.ask(*_request(line)).to_dict(), (UserError, QueryError, LLMError))
    try:
        answer = assistant.ask(args.question)
    except QueryError as exc:
        raise UserError(str(exc)) from None
    if args.json:
        _print_json(answer.to_dict())
        return 0
    if answer.notice:
        print(f"note: {answer.notice}", file=sys.stderr)
    print(answer.answer)
    if answer.citations:
        print("\nReferences")
        for c in answer.citations:
            print(f"[{c.n}] {c.title}. {', '.join(c.authors)}. {c.url}")
    return 0


def cmd_serve(args: argparse.Namespace, settings: Settings) -> int:
    """``assistant serve``: the Gradio chat."""
    # Imported here, not at the top: gradio takes about 2 s to import, which no other command needs.
    from assistant.ui import serve

    serve(settings)
    return 0


def cmd_eval(args: argparse.Namespace, settings: Settings) -> int:
    """``assistant eval [--retrieval]``."""
    return evaluation.run_cli(args, settings)


if __name__ == "__main__":
    sys.exit(main())
