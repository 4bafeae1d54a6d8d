"""The browser chat (Gradio Blocks). It shows what the pipeline decided; it decides nothing.

Per-session state lives in ``gr.State``; the models are shared and loaded once. The chat
event runs one answer at a time (the CPU is the bottleneck) and Gradio's queue tells the
others their position.
"""

from __future__ import annotations

import errno
import os
import socket
import tempfile
import threading
import time
from collections.abc import Callable, Generator, Iterator
from contextlib import closing
from pathlib import Path
from typing import Any

from assistant import conversations, present
from assistant.build import open_assistant
from assistant.config import Settings
from assistant.errors import AssistantError, describe

EXAMPLES = [
    "Which papers speed up LLM decoding?",
    "How can a language model read documents longer than its context window?",
    "Compare ReadAgent and Lookahead decoding",
    "Which papers did Moritz Hardt write?",
]

CSS = """
.src { border: 1px solid var(--border-color-primary); border-radius: 8px; padding: 8px 10px; margin-bottom: 8px; }
.src.focus { outline: 3px solid #f59e0b; }
.src-title { font-weight: 600; } .src-authors, .src-area { font-size: 0.85em; opacity: 0.8; }
.src-abstract { font-size: 0.9em; line-height: 1.4; }
mark.evidence { background: #fde68a; color: inherit; padding: 0 1px; }
a.cite { font-weight: 600; text-decoration: none; cursor: pointer; }
/* Words stay whole: the table grows to its longest word and scrolls sideways inside its own box. */
.table-scroll { overflow-x: auto; max-width: 100%; }
table.compare { width: 100%; max-width: none; table-layout: auto; border-collapse: collapse; }
table.compare td, table.compare th { vertical-align: top; font-size: 0.9em; min-width: 10em;
  word-break: normal !important; overflow-wrap: normal !important; hyphens: none !important; white-space: normal; }
table.compare thead th:first-child, table.compare tbody th { min-width: 5em; }
.stopped { font-weight: 600; color: var(--body-text-color-subdued); }
.answer ul { margin: 0.2em 0; padding-left: 1.2em; } .answer li { margin-bottom: 0.3em; }
p.differences { margin: 0 0 0.5em 0; }
/* The panel scrolls inside its own box (Gradio lets blocks overflow), so the Trace below never covers a card. */
#sources-panel { max-height: 640px; overflow-y: auto !important; overflow-x: hidden !important; }
"""

# A click on an answer shows that answer's sources; a click on [n] (chat or table) also scrolls the
# Sources panel to paper n and flashes it.
HEAD = """
<script>
function showTurn(turn) {
  if (turn === null) return;
  document.querySelectorAll('#sources-panel .turn-sources').forEach(function (el) {
    el.style.display = el.classList.contains('turn-src-' + turn) ? '' : 'none';
  });
}
document.addEventListener('click', function (event) {
  if (!event.target.closest) return;
  const link = event.target.closest('a.cite, a[href^="#src-"]');
  const answer = event.target.closest('.answer');
  const turnClass = answer ? Array.from(answer.classList).find(function (c) { return c.startsWith('turn-'); }) : null;
  if (!link) {
    if (turnClass) showTurn(turnClass.slice(5));
    return;
  }
  event.preventDefault();
  event.stopPropagation();
  const target = (link.getAttribute('href') || '').slice(1);
  const parts = target.split('-');
  if (parts.length === 3) showTurn(parts[1]);
  const card = document.getElementById(target);
  if (!card) return;
  document.querySelectorAll('.src.focus').forEach(function (el) { el.classList.remove('focus'); });
  card.classList.add('focus');
  card.scrollIntoView({behavior: 'smooth', block: 'start'});
  // Keyboard users land on the source they opened (Enter on [n]), as a click shows it.
  card.setAttribute('tabindex', '-1');
  card.focus({preventScroll: true});
}, true);
</script>
"""


class ServeError(AssistantError, RuntimeError):
    """The chat cannot start (its address is taken or does not exist)."""


class Engine:
    """Loads the index and models once, on first use, behind a lock."""

    def __init__(self, settings: Settings, factory: Callable[[Settings], Any] | None = None) -> None:
        self.settings = settings
        self._factory = factory
        self._assistant: Any = None
        self._lock = threading.Lock()
        self._checked = 0.0

    def get(self) -> Any:
        """The shared Assistant, its lexical index brought in line with Chroma at most every
        ``settings.refresh_seconds`` (another process may have ingested into the same index)."""
        with self._lock:
            if self._assistant is None:
                self._assistant = (self._factory or open_assistant)(self.settings)
                self._checked = time.monotonic()
            elif time.monotonic() - self._checked > self.settings.refresh_seconds:
                self._checked = time.monotonic()
                self._assistant.retriever.refresh()
            return self._assistant

    def warm_up(self) -> Iterator[str]:
        """Load everything, reporting each step (shown while the page's first load is slow)."""
        yield "⏳ Loading the index…"
        assistant = self.get()
        yield "⏳ Loading the embedding model…"
        _ = assistant.retriever.embedder
        yield "⏳ Loading the language model…"
        _ = assistant.llm
        yield self.status_line()

    def status_line(self) -> str:
        """Index status for the header."""
        assistant = self.get()
        status = assistant.retriever.status()
        model = assistant.model_name
        return (
            f"**Index:** {status['dense']['papers']} papers, {status['dense']['chunks']} chunks · "
            f"**embeddings:** {status['embedding_model'] or 'none'} · **model:** {model}"
        )


def _history_for_pipeline(turns: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Earlier turns as the pipeline takes them: the question, what was cited and the papers in focus."""
    return [
        {
            "question": t["question"],
            "citations": t["answer"].get("citations", []),
            "focus": t["answer"].get("focus", []),
        }
        for t in turns
    ]


def _unfinished(chat: list[dict[str, Any]]) -> bool:
    """Whether the chat ends in a reply still being written (a status line, a draft, the first "…"):
    only those are marked as stopped; a finished answer or an error stays as it is."""
    if not chat or chat[-1].get("role") != "assistant":
        return False
    text = conversations.message_text(chat[-1].get("content"))
    return not any(mark in text for mark in ('class="answer', 'class="stopped"', "⚠️"))


def mark_stopped(chat: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The chat with an unfinished reply marked as stopped and not checked."""
    if not _unfinished(chat):
        return chat
    last = {"role": "assistant", "content": present.stopped(conversations.message_text(chat[-1]["content"]))}
    return chat[:-1] + [last]


def _restored(conv: dict[str, Any] | None) -> tuple:
    """Chat, Sources panel, trace, turns and id of a stored conversation (None: a new, empty one)."""
    if not conv:  # the id is made now, so that saves racing after a Stop all keep one entry
        return [], present.sources_html(None), {}, [], conversations.new_id()
    turns = conv["turns"]
    trace = present.trace(turns[-1]["answer"]) if turns else {}
    return conv["chat"], present.sources_panel(turns), trace, turns, conv["id"]


def build_app(settings: Settings, factory: Callable[[Settings], Any] | None = None) -> Any:
    """The Gradio Blocks app (not launched)."""
    import gradio as gr

    engine = Engine(settings, factory)

    def stream_reply(question: str, chat: list[dict], turns: list[dict]) -> Generator[tuple, None, None]:
        """(chat, sources, trace, turns) as the answer is written, then with the checked answer."""
        draft = ""
        # closing(): when Stop cancels the event Gradio closes respond(); the pipeline's stream is then
        # closed at once, not whenever it is collected, and closes the model's stream with it: llama.cpp
        # stops decoding and a remote server's connection is closed.
        with closing(engine.get().stream(question, _history_for_pipeline(turns))) as events:
            for kind, value in events:
                if kind == "status":
                    chat[-1]["content"] = f"_{value}_"
                elif kind == "token":
                    draft += value
                    chat[-1]["content"] = present.escape_md(draft) + " ▌"
                else:
                    data = value.to_dict()
                    chat[-1]["content"] = present.answer_html(data, len(turns))
                    turns = turns + [{"question": question, "answer": data}]
                    yield chat, present.sources_panel(turns), present.trace(data), turns
                    return
                yield chat, gr.update(), gr.update(), turns

    def respond(question: str, chat: list[dict], turns: list[dict]) -> Iterator[tuple]:
        question = (question or "").strip()
        if not question:
            gr.Warning("Type a question about the papers first.")
            yield chat, gr.update(), gr.update(), turns, question
            return
        chat = chat + [
            {"role": "user", "content": present.escape_md(question[:2000])},
            {"role": "assistant", "content": "…"},
        ]
        yield chat, gr.update(), gr.update(), turns, ""
        try:
            with closing(stream_reply(question, chat, turns)) as updates:
                for update in updates:
                    yield *update, ""
        except Exception as exc:  # the app stays up; the user sees why
            message = describe(exc) or str(exc) or type(exc).__name__
            chat[-1]["content"] = f"⚠️ {present.escape_md(message)}"
            yield chat, gr.update(), gr.update(), turns, ""

    def save(store: Any, conv_id: str, chat: list[dict], turns: list[dict]) -> tuple:
        # A reply still unfinished when saved was stopped (a finished answer is saved when it is done):
        # after a reload it must not look like a reply still being written.
        store, conv_id = conversations.save(store, conv_id, mark_stopped(chat), turns)
        return store, conv_id, gr.update(choices=conversations.choices(store), value=conv_id or None)

    def restore(store: Any) -> tuple:
        conv = conversations.current(store)
        return *_restored(conv), gr.update(choices=conversations.choices(store), value=conv and conv["id"])

    def open_chat(store: Any, conv_id: str) -> tuple:
        store = conversations.choose(store, conv_id)
        return *_restored(conversations.current(store)), store

    def new_chat(store: Any) -> tuple:
        store = conversations.choose(store, None)
        return *_restored(None), store, gr.update(value=None)

    def export(turns: list[dict]) -> Any:
        if not turns:
            gr.Warning("Nothing to export yet.")
            return gr.update(visible=False)
        folder = Path(tempfile.mkdtemp(prefix="assistant-export-"))
        path = folder / "conversation.md"
        path.write_text(present.conversation_markdown(turns), encoding="utf-8")
        return gr.update(value=str(path), visible=True)

    def find(query: str, author: str, area: str) -> Any:
        assistant = engine.get()
        query = (query or "").strip()
        if query:
            hits = assistant.retriever.search(query, 20, author or None, area or None)
            ids = [(h.title, h.paper_id) for h in hits]
        else:
            ids = [
                (p.paper.title, p.paper.paper_id) for p in assistant.retriever.filtered(author or None, area or None)
            ]
            ids = ids[:50]
        return gr.update(choices=[(f"{t} [{pid}]", pid) for t, pid in ids], value=[])

    def compare(selected: list[str], chat: list[dict], turns: list[dict]) -> tuple:
        if not 2 <= len(selected or []) <= 4:
            gr.Warning("Tick two to four papers to compare.")
            return gr.update(), chat, gr.update(), turns
        answer = engine.get().compare_ids(selected).to_dict()
        table = present.answer_html(answer, len(turns))
        chat = chat + [
            {"role": "user", "content": present.escape_md(answer["question"])},
            {"role": "assistant", "content": table},
        ]
        turns = turns + [{"question": answer["question"], "answer": answer}]
        return table, chat, present.sources_panel(turns), turns

    def areas() -> list[str]:
        try:
            papers = engine.get().retriever.papers()
        except Exception:
            return []
        return sorted({p.paper.area for p in papers if p.paper.area})

    with gr.Blocks(title="ICML 2024 paper assistant") as app:
        turns = gr.State([])
        conv_id = gr.State("")
        # The browser holds the conversations; the server keeps none. A fixed key and secret let them
        # survive a restart of the server (the secret reaches the page anyway: it hides nothing from
        # the user, it only keeps the stored value opaque to other scripts reading storage).
        store = gr.BrowserState(
            conversations.EMPTY, storage_key="icml-assistant-conversations", secret="icml-assistant-conversations"
        )
        gr.Markdown(
            "## ICML 2024 paper assistant\nAnswers come only from the indexed abstracts; every sentence is cited."
        )
        status = gr.Markdown("⏳ Starting…", elem_id="index-status")
        with gr.Tabs():
            with gr.Tab("Chat", id="chat"), gr.Row(equal_height=False):
                with gr.Column(scale=3, min_width=300):
                    chat = gr.Chatbot(
                        elem_id="chat",
                        height=520,
                        latex_delimiters=[],
                        sanitize_html=True,
                        feedback_options=None,
                        placeholder="Ask about ICML 2024 papers.",
                        label="Conversation",
                        buttons=["copy", "copy_all"],
                    )
                    with gr.Row():
                        box = gr.Textbox(
                            placeholder="Ask a question about ICML 2024 papers…",
                            label="Question",
                            show_label=False,
                            scale=5,
                            min_width=200,
                            elem_id="question",
                            max_length=100_000,
                        )
                        with gr.Column(scale=1, min_width=80):  # stacked: they stay beside the box on a phone
                            send = gr.Button("Ask", variant="primary", elem_id="ask")
                            stop_btn = gr.Button("Stop", variant="stop", elem_id="stop")
                    gr.Examples(EXAMPLES, inputs=[box], label="Examples")
                    with gr.Row():
                        new_btn = gr.Button("New chat", elem_id="new-chat", min_width=100)
                        export_btn = gr.Button("Export Markdown", elem_id="export", min_width=100)
                    export_file = gr.File(label="Download conversation.md", visible=False, elem_id="export-file")
                    history = gr.Radio(
                        label="Earlier conversations (kept in this browser)", choices=[], elem_id="history"
                    )
                with gr.Column(scale=2, min_width=300):
                    gr.Markdown("### Sources")
                    sources = gr.HTML(present.sources_html(None), elem_id="sources-panel")
                    with gr.Accordion("Trace: how this answer was made", open=False, elem_id="trace"):
                        trace = gr.JSON(label="trace")
            with gr.Tab("Browse & compare", id="compare"):
                with gr.Row():
                    q = gr.Textbox(
                        label="Search", placeholder="e.g. diffusion sampling", scale=3, elem_id="browse-query"
                    )
                    author = gr.Textbox(
                        label="Author", placeholder="e.g. Moritz Hardt", scale=2, elem_id="browse-author"
                    )
                    area = gr.Dropdown(
                        label="Subject area", choices=[], allow_custom_value=True, scale=2, elem_id="browse-area"
                    )
                    find_btn = gr.Button("Find papers", scale=1, elem_id="find")
                picks = gr.CheckboxGroup(label="Tick two to four papers", choices=[], elem_id="picks")
                compare_btn = gr.Button("Compare", variant="primary", elem_id="compare-btn")
                table = gr.HTML(elem_id="compare-table")

        outputs = [chat, sources, trace, turns, box]
        kept = [store, conv_id, history]
        saving = dict(fn=save, inputs=[store, conv_id, chat, turns], outputs=kept, api_name=False)
        asks = [
            send.click(
                respond, [box, chat, turns], outputs, concurrency_limit=1, concurrency_id="answers", api_name="chat"
            ),
            box.submit(
                respond, [box, chat, turns], outputs, concurrency_limit=1, concurrency_id="answers", api_name=False
            ),
        ]
        for event in asks:
            event.then(**saving)
        # cancels= ends the running (or queued) answer on the server and frees the queue; once that
        # returns, no streamed piece can arrive any more, and what was shown is marked as stopped, not
        # checked (outside the queue, so at once even when the machine is busy). Marking it in the same
        # event raced with a last streamed piece that overwrote the mark.
        stop_btn.click(None, None, None, cancels=asks, queue=False, api_name=False).then(
            mark_stopped, [chat], [chat], queue=False, api_name=False
        ).then(**saving)
        new_btn.click(new_chat, [store], [chat, sources, trace, turns, conv_id, store, history], api_name=False)
        history.input(open_chat, [store, history], [chat, sources, trace, turns, conv_id, store], api_name=False)
        export_btn.click(export, [turns], [export_file], api_name=False)
        find_btn.click(find, [q, author, area], [picks], api_name="find")
        compare_btn.click(
            compare, [picks, chat, turns], [table, chat, sources, turns], concurrency_id="answers", api_name="compare"
        ).then(**saving)

        def warm() -> Iterator[Any]:
            try:
                for line in engine.warm_up():
                    yield line, gr.update()
                yield engine.status_line(), gr.update(choices=areas())
            except Exception as exc:
                yield f"⚠️ {describe(exc) or exc}", gr.update()

        app.load(restore, [store], [chat, sources, trace, turns, conv_id, history], api_name=False)
        app.load(warm, None, [status, area], api_name=False)
    return app


def theme() -> Any:
    """Gradio's default look with colours dark enough for white or accent text to be read (WCAG AA,
    4.5:1): the default orange and red buttons, the selected tab and the pale grey of secondary text
    (the footer's link: 1.9:1) fall short of it."""
    import gradio as gr
    from gradio.themes.utils import colors

    return gr.themes.Default(font=["system-ui", "sans-serif"], font_mono=["monospace"]).set(
        color_accent="*primary_700",
        button_primary_background_fill="*primary_700",
        button_primary_background_fill_hover="*primary_800",
        button_cancel_background_fill=colors.red.c700,
        button_cancel_background_fill_hover=colors.red.c800,
        body_text_color_subdued="*neutral_600",
    )


def launch(app: Any, settings: Settings, **kwargs: Any) -> Any:
    """Start Gradio's server with the queue, loopback binding and optional login."""
    auth = tuple(settings.auth.split(":", 1)) if settings.auth else None  # its form is checked with the settings
    if auth:  # closes what Gradio's own login leaves open (see assistant.login)
        from starlette.middleware import Middleware

        from assistant.login import LoginWall

        kwargs.setdefault("app_kwargs", {"middleware": [Middleware(LoginWall)]})
    app.queue(default_concurrency_limit=4, max_size=64)
    return app.launch(
        server_name=settings.host,
        server_port=settings.port,
        auth=auth,
        css=CSS,
        head=HEAD,
        theme=theme(),
        footer_links=["api"],
        show_error=True,
        **kwargs,
    )


def check_address(host: str, port: int) -> None:
    """Raise ServeError when nothing can listen on ``host:port``: checked before the models load,
    so a taken port is one line at once, not a traceback after "Serving on ..."."""
    try:
        family, kind, proto, _, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0]
    except socket.gaierror as exc:
        raise ServeError(f"cannot serve on {host}: no such address ({exc.strerror})") from None
    try:
        with socket.socket(family, kind, proto) as sock:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as the server itself binds
            sock.bind(address)
    except OSError as exc:
        if exc.errno == errno.EADDRINUSE:
            raise ServeError(
                f"port {port} on {host} is already in use; stop what holds it or pick another with --port"
            ) from None
        raise ServeError(f"cannot serve on {host}:{port}: {exc.strerror or exc}") from None


def serve(settings: Settings) -> None:
    """Build and serve the app until interrupted."""
    os.environ.setdefault("GRADIO_ANALYTICS_ENABLED", "False")
    check_address(settings.host, settings.port)
    app = build_app(settings)
    print(f"Serving the assistant on http://{settings.host}:{settings.port} (pid {os.getpid()})", flush=True)
    try:
        launch(app, settings)
    except OSError as exc:  # the port was taken between the check and the start
        raise ServeError(f"cannot serve on {settings.host}:{settings.port}: {exc}") from None
