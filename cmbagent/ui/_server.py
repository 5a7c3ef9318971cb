"""The web server around the Gradio app: session cookies, the per-session file routes, zip downloads.

Gradio's own ``/gradio_api/file=`` route is told that the whole workspaces root is off limits
(``blocked_paths``) and nothing is added to its ``allowed_paths``; run files reach the browser only through
``/cmbagent/files/<run>/<path>`` and ``/cmbagent/download/<run>.zip``, which take the session from the cookie,
never from the URL, and answer 404 for anything outside that session's own run folders.
"""

from __future__ import annotations

import os
from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass, field
from http.cookies import SimpleCookie
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs

from cmbagent.ui._sessions import COOKIE_NAME, Session, SessionStore, new_token, valid_token

__all__ = ["UISettings", "create_server", "serve"]

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

_COOKIE_MAX_AGE = 60 * 60 * 24 * 90


@dataclass
class UISettings:
    """How the app is served; built from CLI flags (``cmbagent ui``) or the environment (``app.py``)."""

    workspaces: Path = field(default_factory=lambda: Path("workspaces"))
    max_concurrent_runs: int = 2
    auth: tuple[str, str] | None = None
    examples_dir: Path | None = None
    default_model: str = "offline"
    sandbox: str = "auto"
    max_budget_usd: float | None = None
    secure_cookies: bool = False
    root_path: str = ""
    max_upload: str = "1gb"

    @classmethod
    def from_env(cls, env: MutableMapping[str, str] | None = None, **overrides: Any) -> UISettings:
        """Settings from ``CMBAGENT_UI_*`` variables (the Space reads its configuration this way)."""
        env = os.environ if env is None else env
        settings = cls(
            workspaces=Path(
                env.get("CMBAGENT_UI_WORKSPACES") or env.get("CMBAGENT_WORKSPACES") or "workspaces"
            ),
            max_concurrent_runs=int(env.get("CMBAGENT_UI_MAX_CONCURRENT_RUNS") or 2),
            default_model=env.get("CMBAGENT_MODEL") or "offline",
            sandbox=env.get("CMBAGENT_UI_SANDBOX") or "auto",
            max_budget_usd=float(env["CMBAGENT_UI_MAX_BUDGET_USD"])
            if env.get("CMBAGENT_UI_MAX_BUDGET_USD")
            else None,
            secure_cookies=bool(env.get("SPACE_ID")) or env.get("CMBAGENT_UI_SECURE_COOKIES") == "1",
        )
        auth = env.get("CMBAGENT_UI_AUTH")
        if auth:
            settings.auth = parse_auth(auth)
        if env.get("CMBAGENT_UI_EXAMPLES"):
            settings.examples_dir = Path(env["CMBAGENT_UI_EXAMPLES"])
        for key, value in overrides.items():
            setattr(settings, key, value)
        return settings


def parse_auth(value: str) -> tuple[str, str]:
    from cmbagent.exceptions import UserError

    user, sep, password = value.partition(":")
    if not sep or not user or not password:
        raise UserError("--auth must be USER:PASS, e.g. --auth alice:s3cret")
    return user, password


def _cookies(scope: Scope) -> dict[str, str]:
    jar: SimpleCookie = SimpleCookie()
    for name, value in scope.get("headers") or []:
        if name == b"cookie":
            try:
                jar.load(value.decode("latin-1"))
            except Exception:  # a malformed cookie header is the client's problem; treat as absent
                continue
    return {key: morsel.value for key, morsel in jar.items()}


class SessionCookieMiddleware:
    """Gives every browser a session cookie on its first page load; ``/?session=<token>`` adopts a session.

    It also refuses ``/gradio_api/file=<url>``: that route would make this server fetch a URL for a client,
    and nothing should leave the machine on a visitor's behalf.
    """

    def __init__(self, app: ASGIApp, *, secure: bool):
        self.app = app
        self.secure = secure

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
        if scope.get("method") != "GET" or path.rstrip("/") != scope.get("root_path", "").rstrip("/"):
            await self.app(scope, receive, send)
            return
        query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
        adopted = (query.get("session") or [""])[0]
        if adopted:
            if not valid_token(adopted):
                await _plain(
                    send, 400, "this session link is malformed; open the app without ?session= to start anew"
                )
                return
            location = (scope.get("root_path") or "") + "/"
            await send(
                {
                    "type": "http.response.start",
                    "status": 303,
                    "headers": [(b"location", location.encode()), self._cookie_header(adopted), _NO_STORE],
                }
            )
            await send({"type": "http.response.body", "body": b""})
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


_NO_STORE = (b"cache-control", b"no-store")


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


def session_from_cookies(
    store: SessionStore, cookies: MutableMapping[str, str] | dict[str, str]
) -> Session | None:
    token = cookies.get(COOKIE_NAME)
    return store.session(token) if token is not None and valid_token(token) else None


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
    app.add_middleware(SessionCookieMiddleware, secure=settings.secure_cookies)
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
