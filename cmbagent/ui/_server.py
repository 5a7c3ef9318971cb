"""The web server around the Gradio app: session cookies, the per-session file routes, zip downloads.

Gradio's own ``/gradio_api/file=`` route is told that the whole workspaces root is off limits
(``blocked_paths``) and nothing is added to its ``allowed_paths``; run files reach the browser only through
``/cmbagent/files/<run>/<path>`` and ``/cmbagent/download/<run>.zip``, which take the session from the cookie,
never from the URL, and answer 404 for anything outside that session's own run folders.
"""

from __future__ import annotations

import os
from collections.abc import Awaitable, Callable, MutableMapping
from http.cookies import SimpleCookie
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

from cmbagent.ui._sessions import COOKIE_NAME, SessionStore, new_token, valid_token
from cmbagent.ui._settings import UISettings

__all__ = ["create_server", "serve"]

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

_COOKIE_MAX_AGE = 60 * 60 * 24 * 90


def _cookies(scope: Scope) -> dict[str, str]:
    jar: SimpleCookie = SimpleCookie()
    for name, value in scope.get("headers") or []:
        if name == b"cookie":
            try:
                jar.load(value.decode("latin-1"))
            except Exception:  # a malformed cookie header is the client's problem; treat as absent
                continue
    return {key: morsel.value for key, morsel in jar.items()}


#: Gradio routes this app never uses, answered 404: ``deep_link`` writes a session's component values (the API
#: key a visitor typed, the session link) to a file that ``/gradio_api/file=`` then serves; ``proxy=`` fetches
#: URLs; the others serve media streams, recordings, custom components, run history, monitoring, the vibe editor
#: and an MCP endpoint, none of which this app has
_UNUSED_GRADIO_ROUTES = (
    "/gradio_api/deep_link", "/gradio_api/proxy=", "/gradio_api/process_recording", "/gradio_api/stream/",
    "/gradio_api/custom_component/", "/gradio_api/run-history", "/gradio_api/runs", "/gradio_api/vibe-",
    "/gradio_api/undo-vibe-", "/gradio_api/mcp", "/monitoring",
)


class SessionCookieMiddleware:
    """Gives every browser a session cookie on its first page load; ``/?session=<token>`` adopts a session.

    It also refuses ``/gradio_api/file=<url>``: that route would make this server fetch a URL for a client,
    and nothing should leave the machine on a visitor's behalf; and the Gradio routes the app never uses.
    """

    def __init__(self, app: ASGIApp, *, secure: bool, prefix: str = ""):
        self.app = app
        self.secure = secure
        self.prefix = prefix.rstrip("/")

    def _cookie_header(self, token: str) -> tuple[bytes, bytes]:
        attrs = f"{COOKIE_NAME}={token}; Path=/; Max-Age={_COOKIE_MAX_AGE}; HttpOnly"
        # inside the Hugging Face page the app is a cross-site iframe: the cookie must be SameSite=None
        attrs += "; SameSite=None; Secure; Partitioned" if self.secure else "; SameSite=Lax"
        return b"set-cookie", attrs.encode("latin-1")

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path = scope.get("path", "")
        if "/file=" in path:
            target = path.split("/file=", 1)[1].lower()
            if target.startswith(("http:", "https:", "//", "ftp:", "data:")):
                await _plain(send, 403, "remote URLs are not fetched by this server")
                return
        route = path[len(self.prefix):] if self.prefix and path.startswith(self.prefix + "/") else path
        if route.startswith(_UNUSED_GRADIO_ROUTES):
            await _plain(send, 404, "not found")
            return
        method = scope.get("method")
        if method not in ("GET", "POST") or path.rstrip("/") != scope.get("root_path", "").rstrip("/"):
            await self.app(scope, receive, send)
            return
        query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
        adopted = (query.get("session") or [""])[0]
        if adopted:
            await self._adopt(scope, send, adopted, method)
            return
        if method != "GET":
            await self.app(scope, receive, send)
            return
        if valid_token(_cookies(scope).get(COOKIE_NAME)):
            await self.app(scope, receive, send)
            return
        header = self._cookie_header(new_token())

        async def send_with_cookie(message: Message) -> None:
            if message["type"] == "http.response.start":
                message = dict(message)
                message["headers"] = [*message.get("headers", []), header]
            await send(message)

        await self.app(scope, receive, send_with_cookie)

    async def _adopt(self, scope: Scope, send: Send, token: str, method: str) -> None:
        """``/?session=<token>``: a page that asks before switching; its button POSTs back here.

        Switching silently on a GET would let anyone who sends a person a link of their own (session
        fixation) read whatever that person runs next.  The switch needs a POST from this site's own page
        (``Origin``/``Sec-Fetch-Site`` checked), so another site cannot make a browser switch either.
        """
        if not valid_token(token):
            await _plain(send, 400, "this session link is malformed; open the app without ?session= to start anew")
            return
        location = ((scope.get("root_path") or "") + "/").encode()
        if _cookies(scope).get(COOKIE_NAME) == token:
            headers = [(b"location", location), _NO_STORE]
        elif method == "POST":
            if not _same_origin(scope):
                await _plain(send, 403, "a session link can be opened only from this site's own page")
                return
            headers = [(b"location", location), self._cookie_header(token), _NO_STORE]
        else:
            body = _ADOPT_PAGE.replace("{token}", token).replace("{home}", location.decode()).encode()
            # no other site may frame the button (a framed, disguised button would be clickjacking); a Space
            # is itself a frame of huggingface.co
            ancestors = "'self' https://huggingface.co" if self.secure else "'self'"
            policy = f"default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors {ancestors}"
            await send({"type": "http.response.start", "status": 200, "headers": [
                (b"content-type", b"text/html; charset=utf-8"), (b"content-length", str(len(body)).encode()),
                _NO_STORE, (b"referrer-policy", b"no-referrer"), (b"content-security-policy", policy.encode()),
            ]})
            await send({"type": "http.response.body", "body": body})
            return
        await send({"type": "http.response.start", "status": 303, "headers": headers})
        await send({"type": "http.response.body", "body": b""})


_NO_STORE = (b"cache-control", b"no-store")
_ADOPT_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="referrer" content="no-referrer">
<title>cmbagent: open a session link</title></head>
<body style="font-family: system-ui, sans-serif; max-width: 40em; margin: 3em auto; line-height: 1.5">
<h1>Open the runs of this session link?</h1>
<p>A session link is the key to one browser session's runs. Whoever has this link sees those runs, and also
everything you start after opening it. Open it only if it is your own link, copied from this app by you.</p>
<form method="post" action="?session={token}"><button id="cmb-adopt" type="submit">Open these runs</button></form>
<p><a id="cmb-keep" href="{home}">No, keep my current session</a></p>
</body></html>
"""


def _same_origin(scope: Scope) -> bool:
    """Whether a request comes from a page of this site (``Sec-Fetch-Site`` or ``Origin`` against ``Host``)."""
    headers = {name.decode("latin-1").lower(): value.decode("latin-1") for name, value in scope.get("headers") or []}
    site = headers.get("sec-fetch-site")
    if site is not None:
        return site == "same-origin"
    origin = headers.get("origin")
    if not origin:
        return False
    hosts = {headers.get("host", ""), headers.get("x-forwarded-host", "")} - {""}
    return urlsplit(origin).netloc in hosts


async def _plain(send: Send, status: int, text: str) -> None:
    body = text.encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"text/plain; charset=utf-8"),
                (b"content-length", str(len(body)).encode()),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


def create_server(settings: UISettings) -> tuple[Any, Any]:
    """Build the ASGI app (FastAPI + mounted Gradio) and its run manager; nothing is started."""
    import gradio as gr
    from fastapi import FastAPI

    from cmbagent.ui._app import build_blocks
    from cmbagent.ui._routes import add_file_routes
    from cmbagent.ui._runs import RunManager
    from cmbagent.ui._style import CSS, HEAD

    os.environ["GRADIO_ANALYTICS_ENABLED"] = "False"
    # Gradio rebuilds a pandas table of every past event after each event, only for its monitoring dashboard
    # (off here): O(events) work per event on a long-lived server, so it is pushed out of reach.
    os.environ.setdefault("GRADIO_ANALYTICS_CACHE_FREQUENCY", str(2**62))
    settings.workspaces = Path(settings.workspaces).expanduser().resolve()
    settings.workspaces.mkdir(parents=True, exist_ok=True)
    store = SessionStore(settings.workspaces)
    manager = RunManager(settings.max_concurrent_runs)
    blocks = build_blocks(settings, store, manager)

    app = FastAPI(docs_url=None, redoc_url=None, openapi_url=None)
    prefix = settings.root_path.rstrip("/")

    add_file_routes(app, store, settings, prefix=prefix)

    app = gr.mount_gradio_app(
        app,
        blocks,
        path=prefix or "/",
        auth=settings.auth,
        allowed_paths=[],
        blocked_paths=[str(settings.workspaces)],
        footer_links=[],
        run_history=False,
        show_error=True,
        ssr_mode=False,
        max_file_size=settings.max_upload,
        mcp_server=False,
        pwa=False,
        enable_monitoring=False,
        css=CSS,
        head=HEAD,
        theme=gr.themes.Default(
            font=["ui-sans-serif", "system-ui", "sans-serif"],
            font_mono=["ui-monospace", "SFMono-Regular", "monospace"],
        ),
        root_path=prefix or None,
    )
    app.add_middleware(SessionCookieMiddleware, secure=settings.secure_cookies, prefix=prefix)
    app.state.cmbagent_manager = manager
    app.state.cmbagent_store = store
    return app, manager


def serve(settings: UISettings, *, host: str = "127.0.0.1", port: int = 7860, sock: Any = None) -> None:
    """Run the server until interrupted (uvicorn; one process, the runs in its worker threads)."""
    import uvicorn

    app, manager = create_server(settings)
    config = uvicorn.Config(app, host=host, port=port, log_level="warning", access_log=False, lifespan="on")
    server = uvicorn.Server(config)
    try:
        server.run(sockets=[sock] if sock is not None else None)
    finally:
        manager.shutdown(wait=False)
