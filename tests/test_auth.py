"""With ASSISTANT_AUTH set, neither the page nor the API answers without logging in."""

from __future__ import annotations

import json
import urllib.error
import urllib.parse
import urllib.request
from typing import Iterator

import pytest

from bench.servers import ingest_seeds, running_app

pytestmark = pytest.mark.real


@pytest.fixture(scope="module")
def url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The real app with the seeds indexed and the login alice:s3cret."""
    root = tmp_path_factory.mktemp("auth")
    ingest_seeds(root / "data")
    with running_app(root / "data", root / "server.log", ASSISTANT_AUTH="alice:s3cret") as base:
        yield base


def status_of(request: urllib.request.Request | str) -> int:
    """The HTTP status a request gets (without logging in)."""
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status
    except urllib.error.HTTPError as exc:
        return exc.code


API_ROUTES = {  # every named endpoint, with arguments it would accept once logged in
    "chat": ["What is ReadAgent?", []],
    "find": ["", "Moritz Hardt", ""],
    "compare": [[], [], []],
}


def post_json(url: str, body: dict) -> int:
    """The HTTP status of a JSON POST (without logging in)."""
    return status_of(urllib.request.Request(url, data=json.dumps(body).encode(),
                                            headers={"Content-Type": "application/json"}))


def test_login_required_for_ui_and_api(url: str) -> None:
    from gradio_client import Client
    from gradio_client.exceptions import AuthenticationError

    assert url.startswith("http://127.0.0.1:")  # loopback by default
    for path in ("/config", "/gradio_api/info"):  # what the page and the API clients read first
        with pytest.raises(urllib.error.HTTPError) as denied:
            urllib.request.urlopen(url + path, timeout=10)
        assert denied.value.code == 401
    # A client without credentials is refused for want of a login, one with a wrong password at
    # the login itself; neither gets as far as calling anything.
    with pytest.raises(AuthenticationError, match="credentials were not provided"):
        Client(url, verbose=False)
    with pytest.raises(ValueError, match="Could not login"):
        Client(url, auth=("alice", "wrong"), verbose=False)
    # Every API route, called directly over HTTP the way a client would, is refused unauthenticated.
    for name, data in API_ROUTES.items():
        for route in (f"/gradio_api/call/{name}", f"/gradio_api/run/{name}"):
            assert post_json(url + route, {"data": data}) == 401, route
    assert post_json(url + "/gradio_api/queue/join", {"data": API_ROUTES["chat"] + [[]], "fn_index": 0,
                                                      "session_hash": "s", "event_id": None}) == 401
    # Logged in, the same routes answer: /find lists papers and /chat answers with a citation.
    client = Client(url, auth=("alice", "s3cret"), verbose=False)
    assert client.predict(*API_ROUTES["find"], api_name="/find")
    chat, sources, _trace, _box = client.predict(*API_ROUTES["chat"], api_name="/chat")
    assert 'class="cite"' in str(chat[-1]["content"]) and "ReadAgent" in sources


def test_nothing_about_the_api_before_login_and_every_route_behind_it(url: str) -> None:
    with urllib.request.urlopen(url + "/", timeout=30) as response:
        page = response.read().decode("utf-8")
    assert "auth_required" in page  # the login page
    assert "named_endpoints" not in page and "/compare" not in page and "window.gradio_api_info = null" in page
    for path, body in (("/gradio_api/cancel", {"session_hash": "s", "fn_index": 0, "event_id": "e"}),
                       ("/gradio_api/reset", {"event_id": "e"})):
        request = urllib.request.Request(url + path, data=json.dumps(body).encode(),
                                         headers={"Content-Type": "application/json"})
        assert status_of(request) == 401, path


def test_failed_logins_are_throttled(url: str) -> None:
    def login(password: str) -> int:
        form = urllib.parse.urlencode({"username": "alice", "password": password}).encode()
        return status_of(urllib.request.Request(url + "/login", data=form))

    assert [login(f"guess{n}") for n in range(8)] == [400] * 5 + [429] * 3
    assert login("s3cret") == 429  # even the right password waits out the minute from this address
