"""How the UI is served (:class:`UISettings`, its parsers) and which session a request's cookies name.

The bottom of the UI's modules: the server, the Gradio app, its tabs and the file routes all read these, and
this module imports none of them (only :mod:`cmbagent.ui._sessions`), so the UI has no import circle.
"""

from __future__ import annotations

import os
import re
from collections.abc import MutableMapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cmbagent.ui._sessions import COOKIE_NAME, Session, SessionStore, valid_token

__all__ = ["UISettings", "parse_auth", "parse_hosts", "session_from_cookies"]


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
    max_upload_files: int = 64
    #: hosts a visitor may point an OpenAI-compatible base URL at (``loopback``, names, IPs, CIDRs, ``*``)
    model_hosts: tuple[str, ...] = ("loopback",)

    @property
    def max_upload_bytes(self) -> int:
        """``max_upload`` in bytes (``"1gb"`` -> 10**9); also the limit of one submission's files together."""
        match = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([kmgt]?b?)\s*", self.max_upload.lower())
        if match is None:
            raise ValueError(f"max_upload {self.max_upload!r} is not a size such as 1gb or 500mb")
        scale = {"": 1, "b": 1, "k": 10**3, "kb": 10**3, "m": 10**6, "mb": 10**6, "g": 10**9, "gb": 10**9,
                 "t": 10**12, "tb": 10**12}[match.group(2)]
        return int(float(match.group(1)) * scale)

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
        if env.get("CMBAGENT_UI_MODEL_HOSTS") is not None:
            settings.model_hosts = parse_hosts(env["CMBAGENT_UI_MODEL_HOSTS"])
        for key, value in overrides.items():
            setattr(settings, key, value)
        return settings


def parse_hosts(value: str | list[str] | tuple[str, ...]) -> tuple[str, ...]:
    """``"loopback, 10.0.0.0/8, llm.internal"`` (or a list) -> the hosts visitors may send model requests to.

    ``none`` (or an empty value) allows none, ``*`` any; anything else must be ``loopback``, a host name, an
    IP address or a network.
    """
    import ipaddress

    from cmbagent.exceptions import UserError

    items = [v.strip() for v in (value.split(",") if isinstance(value, str) else value) if v.strip()]
    hosts: list[str] = []
    for item in items:
        lowered = item.lower()
        if lowered == "none":
            continue
        if lowered not in {"*", "any", "loopback"} and not re.fullmatch(r"[a-z0-9][a-z0-9.-]*", lowered):
            try:
                ipaddress.ip_network(lowered, strict=False)
            except ValueError:
                raise UserError(
                    f"model host {item!r}: give loopback, a host name, an IP address or network, or * for any"
                ) from None
        hosts.append(lowered)
    return tuple(hosts)


def parse_auth(value: str) -> tuple[str, str]:
    """``"alice:s3cret"`` -> ``("alice", "s3cret")``, the login the app asks for (``--auth``)."""
    from cmbagent.exceptions import UserError

    user, sep, password = value.partition(":")
    if not sep or not user or not password:
        raise UserError("--auth must be USER:PASS, e.g. --auth alice:s3cret")
    return user, password


def session_from_cookies(
    store: SessionStore, cookies: MutableMapping[str, str] | dict[str, str]
) -> Session | None:
    """The session a request's cookie names, or None when it names none (a token is checked before it is used)."""
    token = cookies.get(COOKIE_NAME)
    return store.session(token) if token is not None and valid_token(token) else None
