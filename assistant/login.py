"""The login wall in front of the chat's web server, for what Gradio's own login leaves open.

With ``ASSISTANT_AUTH`` set, Gradio asks for a login on its pages and most of its API, but
still embeds the API's schema in the page shown before the login, answers ``/cancel`` and
``/reset`` to anyone, and checks any number of passwords at full speed. This ASGI middleware
closes those three gaps; without a login set it is not installed at all.
"""

from __future__ import annotations

import asyncio
import re
import time
from collections import defaultdict, deque
from collections.abc import Awaitable, Callable
from typing import Any

Scope = dict[str, Any]
Message = dict[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]

# Routes that act on a running answer: Gradio leaves them open, so they are closed here.
CLOSED_PATHS = re.compile(r"/gradio_api/(cancel|reset|heartbeat)\b")
LOGIN_PATHS = {"/login", "/login/"}
API_SCHEMA = re.compile(rb"window\.gradio_api_info = .*?;</script>", re.DOTALL)
NO_SCHEMA = b"window.gradio_api_info = null;</script>"
MAX_FAILURES = 5  # failed logins per client address within FAILURE_WINDOW before it must wait
FAILURE_WINDOW = 60.0
FAILURE_DELAY = 0.5  # every failed login answers this much later, so guesses come one by one slowly


class LoginWall:
    """ASGI middleware: no API schema before the login, every answer route behind it, and
    failed logins throttled per client address."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self.failures: dict[str, deque[float]] = defaultdict(deque)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or self._logged_in(scope):
            await self.app(scope, receive, send)
            return
        path = scope.get("path", "")
        if CLOSED_PATHS.match(path):
            await _answer(send, 401, b'{"detail": "Not authenticated"}')
        elif path in LOGIN_PATHS and scope.get("method") == "POST":
            await self._login(scope, receive, send)
        elif scope.get("method") == "GET":
            await self.app(scope, receive, _without_schema(send))
        else:
            await self.app(scope, receive, send)

    @staticmethod
    def _logged_in(scope: Scope) -> bool:
        """True for a request carrying a session token Gradio issued (its cookie names vary per app)."""
        from starlette.requests import HTTPConnection

        tokens = getattr(scope.get("app"), "tokens", None) or {}
        cookies = HTTPConnection(scope).cookies
        return any(name.startswith("access-token") and value in tokens for name, value in cookies.items())

    async def _login(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Pass a login attempt on unless its address failed too often lately; slow down failures."""
        client = (scope.get("client") or ("unknown", 0))[0]
        recent = self.failures[client]
        now = time.monotonic()
        while recent and now - recent[0] > FAILURE_WINDOW:
            recent.popleft()
        if len(recent) >= MAX_FAILURES:
            wait = FAILURE_WINDOW - (now - recent[0])
            await _answer(send, 429, b'{"detail": "Too many failed logins; try again in %d s."}' % max(1, int(wait)))
            return
        status: list[int] = []

        async def watch(message: Message) -> None:
            if message["type"] == "http.response.start":
                status.append(message["status"])
                if message["status"] >= 400:
                    recent.append(time.monotonic())
                    await asyncio.sleep(FAILURE_DELAY)
            await send(message)

        await self.app(scope, receive, watch)
        if status and status[0] < 400:
            recent.clear()


def _without_schema(send: Send) -> Send:
    """A ``send`` that removes the API schema from an HTML page (the login page embeds it)."""
    start: list[Message] = []
    body: list[bytes] = []

    async def rewrite(message: Message) -> None:
        if message["type"] == "http.response.start":
            headers = dict(message.get("headers") or [])
            if not headers.get(b"content-type", b"").startswith(b"text/html"):
                start.append({})  # not a page: passed through as it is
                await send(message)
            else:
                start.append(message)
            return
        if start and not start[0]:
            await send(message)
            return
        body.append(message.get("body", b""))
        if message.get("more_body"):
            return
        page = API_SCHEMA.sub(NO_SCHEMA, b"".join(body))
        kept = [(k, v) for k, v in start[0].get("headers") or [] if k.lower() != b"content-length"]
        await send({**start[0], "headers": kept + [(b"content-length", str(len(page)).encode())]})
        await send({"type": "http.response.body", "body": page})

    return rewrite


async def _answer(send: Send, status: int, body: bytes) -> None:
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())],
        }
    )
    await send({"type": "http.response.body", "body": body})
