"""The app's shape: its API endpoints keep their names and handlers, and no UI function grows past ~120 lines.

Gradio names each event's endpoint after its handler (``/submit_task``, ``/follow_2``); clients of the API and
the browser tests call them by these names, so a refactor of the layout or the handlers must keep them.
"""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

import gradio as gr

import cmbagent.ui
from cmbagent.ui import UISettings
from cmbagent.ui._app import build_blocks
from cmbagent.ui._runs import RunManager
from cmbagent.ui._sessions import SessionStore

ROOT = Path(__file__).resolve().parents[2]
MAX_LINES = 120  # issue 32: no function of the glue over ~120 lines

#: every event's endpoint, with the page components it reads (by elem_id; a gr.State is "state")
ENDPOINTS = {
    "on_load": [],
    "submit_task": ["cmb-task", "cmb-files", "cmb-provider", "cmb-model", "cmb-base-url", "cmb-api-key", "number",
                    "number", "number", "slider", "cmb-approve-plan"],
    "run_example": ["cmb-example", "cmb-provider", "cmb-model", "cmb-base-url", "cmb-api-key", "number", "number",
                    "number", "slider", "cmb-approve-plan"],
    "approve": ["state", "cmb-plan-table", "cmb-comment", "cmb-provider", "cmb-model", "cmb-base-url", "cmb-api-key"],
    "reject": ["state", "cmb-plan-table", "cmb-comment", "cmb-provider", "cmb-model", "cmb-base-url", "cmb-api-key"],
    "open_run": ["cmb-run-pick"],
    "resume_run": ["cmb-run-pick", "cmb-provider", "cmb-model", "cmb-base-url", "cmb-api-key"],
    "cancel_run": ["state"],
    "refresh_runs": ["state"],
    "_pick_row": [],
    "_provider_changed": ["cmb-provider"],
    "submit_ideas": ["cmb-ideas-task", "cmb-ideas-files", "cmb-ideas-rounds", "cmb-ideas-n", "cmb-provider",
                     "cmb-model", "cmb-base-url", "cmb-api-key", "number", "number", "number"],
    "submit_example": ["cmb-ideas-example", "cmb-ideas-rounds", "cmb-ideas-n", "cmb-provider", "cmb-model",
                       "cmb-base-url", "cmb-api-key", "number", "number", "number"],
    "follow_ideas": ["state"],
    "run_idea": ["state", "cmb-ideas-pick", "cmb-provider", "cmb-model", "cmb-base-url", "cmb-api-key", "number",
                 "number", "number"],
    "follow": ["state"],
}


def test_the_apps_endpoints_keep_their_names_inputs_and_request_parameter(tmp_path: Path) -> None:
    manager = RunManager(1)
    try:
        demo = build_blocks(UISettings(workspaces=tmp_path / "ws", examples_dir=ROOT / "examples"),
                            SessionStore(tmp_path / "ws"), manager)
    finally:
        manager.shutdown(wait=True)
    config = demo.get_config_file()
    components = {c["id"]: c for c in config["components"]}

    def label(block_id: int) -> str:
        props = components[block_id].get("props", {})
        return props.get("elem_id") or components[block_id]["type"]

    seen: dict[str, list[str]] = {}
    for dep, block_fn in zip(config["dependencies"], demo.fns.values(), strict=True):
        name = dep["api_name"]
        base = name.rstrip("_0123456789") if name not in ENDPOINTS else name
        if base not in ENDPOINTS:
            continue  # the Evals tab's own events
        assert [label(i) for i in dep["inputs"]] == ENDPOINTS[base], name
        fn = block_fn.fn
        params = inspect.signature(fn).parameters
        # a handler finds its session from the request: Gradio passes it only to a parameter typed gr.Request
        if base not in {"_pick_row", "_provider_changed", "follow"}:
            assert gr.utils.get_type_hints(fn).get("request") is gr.Request, name
        assert len([p for p in params if p not in {"request", "evt"}]) == len(dep["inputs"]), name
        seen.setdefault(base, []).append(name)
    assert set(seen) == set(ENDPOINTS)
    # the live view's endpoints in the order they are wired: the Ideas tab's, then the page load, the Run tab's
    # five (two submit triggers, example, approve, reject), the Runs tab's open and resume
    assert seen["follow"] == ["follow", *(f"follow_{i}" for i in range(1, 9))]
    assert seen["submit_task"] == ["submit_task", "submit_task_1"]


def test_no_function_of_the_ui_is_longer_than_the_limit() -> None:
    folder = Path(cmbagent.ui.__file__).parent
    long = []
    for path in sorted(folder.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                size = node.end_lineno - node.lineno + 1
                if size > MAX_LINES:
                    long.append(f"{path.name}:{node.lineno} {node.name} ({size} lines)")
    assert not long, f"split these (one builder per tab, handlers as named methods): {long}"
