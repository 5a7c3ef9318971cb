"""The server around the app: session cookies, session links, refused routes, settings from the environment."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from cmbagent.ui import UISettings, create_server
from cmbagent.ui._sessions import COOKIE_NAME, new_token


@pytest.fixture
def client(tmp_path: Path) -> Any:
    from starlette.testclient import TestClient

    app, manager = create_server(UISettings(workspaces=tmp_path / "ws"))
    with TestClient(app, base_url="http://127.0.0.1") as test_client:
        yield test_client
    manager.shutdown(wait=True)


def test_first_visit_gets_a_private_session_cookie(client: Any) -> None:
    response = client.get("/")
    assert response.status_code == 200
    cookie = response.headers["set-cookie"]
    assert cookie.startswith(f"{COOKIE_NAME}=") and "HttpOnly" in cookie and "SameSite=Lax" in cookie
    # a browser that has one keeps it
    again = client.get("/")
    assert COOKIE_NAME not in again.headers.get("set-cookie", "")


def test_session_link_is_adopted_then_dropped_from_the_address(client: Any) -> None:
    token = new_token()
    # opening the link asks first (a link someone else sent must not switch a browser silently) ...
    page = client.get(f"/?session={token}", follow_redirects=False)
    assert page.status_code == 200 and 'id="cmb-adopt"' in page.text and "set-cookie" not in page.headers
    assert "frame-ancestors 'self'" in page.headers["content-security-policy"]
    # ... and the button, a POST from this site's own page, switches and drops the token from the address
    response = client.post(f"/?session={token}", headers={"Sec-Fetch-Site": "same-origin"}, follow_redirects=False)
    assert response.status_code == 303 and response.headers["location"] == "/"
    assert f"{COOKIE_NAME}={token}" in response.headers["set-cookie"]
    assert client.get("/?session=../../etc", follow_redirects=False).status_code == 400


def test_another_site_cannot_switch_a_browsers_session(client: Any) -> None:
    token = new_token()
    for headers in ({"Sec-Fetch-Site": "cross-site"}, {"Origin": "http://evil.example"}, {}):
        response = client.post(f"/?session={token}", headers=headers, follow_redirects=False)
        assert response.status_code == 403 and "set-cookie" not in response.headers, headers
    ok = client.post(f"/?session={token}", headers={"Origin": "http://127.0.0.1"}, follow_redirects=False)
    assert ok.status_code == 303 and token in ok.headers["set-cookie"]
    client.cookies.set(COOKIE_NAME, token)
    again = client.get(f"/?session={token}", follow_redirects=False)  # already this session: nothing to ask
    assert again.status_code == 303 and "set-cookie" not in again.headers


def test_remote_urls_and_workspace_files_are_refused(client: Any, tmp_path: Path) -> None:
    client.get("/")
    assert client.get("/gradio_api/file=https://example.com/").status_code == 403
    assert client.get("/gradio_api/file=http://169.254.169.254/latest/meta-data").status_code == 403
    (tmp_path / "ws" / "secret.txt").write_text("x")
    assert client.get(f"/gradio_api/file={tmp_path / 'ws' / 'secret.txt'}").status_code == 403
    assert client.get("/cmbagent/files/run/plan.json").status_code == 404
    assert client.get("/cmbagent/download/run.zip").status_code == 404


def test_settings_from_the_environment(tmp_path: Path) -> None:
    env = {
        "CMBAGENT_UI_WORKSPACES": str(tmp_path),
        "CMBAGENT_UI_MAX_CONCURRENT_RUNS": "3",
        "CMBAGENT_MODEL": "openai:gpt-4.1",
        "CMBAGENT_UI_MAX_BUDGET_USD": "0.5",
        "CMBAGENT_UI_AUTH": "alice:pw",
        "SPACE_ID": "someone/cmbagent",
    }
    settings = UISettings.from_env(env)
    assert (settings.workspaces, settings.max_concurrent_runs, settings.default_model) == (
        tmp_path,
        3,
        "openai:gpt-4.1",
    )
    assert settings.max_budget_usd == 0.5 and settings.auth == ("alice", "pw") and settings.secure_cookies


def test_cli_ui_command() -> None:
    from cmbagent.cli import app

    runner = CliRunner()
    result = runner.invoke(app, ["ui", "--help"])
    assert result.exit_code == 0
    for option in ("--host", "--port", "--workspace", "--max-concurrent-runs", "--auth"):
        assert option in result.output
    assert "--workspaces" not in result.output  # one spelling across the commands
    bad = runner.invoke(app, ["ui", "--auth", "nopassword"])
    assert bad.exit_code == 2 and "USER:PASS" in bad.output
